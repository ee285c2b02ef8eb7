// SPDX-License-Identifier: BSD-3-Clause
// The strategy and transport a run asked for, checked against the run's exchange context before
// anything is set up, so that a pair that cannot run is refused in one line: the comm layer's fits()
// (comm/combination.hpp), and whether the run's mode can run the transport (RunMode::transport_problem).
#pragma once

#include <amp/miniapps/common/environment.hpp>

#include <amp/comm/combination.hpp>

#include <string>

namespace amp {

// The checked pair, which the run's strategies are built from without a second check: the one place a
// proxy's strategy and transport names are checked. InputError (exit 2) for a name that is not registered
// ("unknown strategy 'x' (use a, b{strategy_also})", `strategy_also` naming more accepted values) or a
// transport the run's mode cannot run; CombinationRefused (exit 6) with fits()'s reason when the pair
// does not fit here.
comm::Combination check_combination(const std::string& strategy, const std::string& transport, const Environment& env,
                                    const std::string& strategy_also = "");

}  // namespace amp
