// One amp-ghost run: set-up, the time-stepping loop driving a comm strategy, verification, and the
// measured numbers that the report turns into the summary and the JSON results.
#pragma once

#include "decomposition.hpp"
#include "ghost_config.hpp"

#include <environment.hpp>
#include <loop_report.hpp>

namespace amp::ghost {

struct GhostMeasurements : LoopMeasurements {
  int checked_variables = 0;
};

GhostMeasurements run_ghost(const GhostConfig& config, const Decomposition& decomposition, const Environment& env);

}  // namespace amp::ghost
