// The strategy and transport a run asked for, checked against the run's exchange context before
// anything is set up, so that a pair that cannot run is refused in one line: the comm layer's fits()
// (comm/combination.hpp) and, in a synthesis, whether the transport can be synthesized.
#pragma once

#include <amp/miniapps/common/environment.hpp>

#include <amp/comm/combination.hpp>

#include <string>

namespace amp {

// The checked pair, which the run's strategies are built from without a second check; CombinationRefused
// (exit 6) with fits()'s reason when it does not fit here; InputError (exit 2) when a synthesis cannot
// write the transport. Both names are registered (the configuration checked them).
comm::Combination check_combination(const std::string& strategy, const std::string& transport, const Environment& env);

}  // namespace amp
