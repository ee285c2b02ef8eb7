// SPDX-License-Identifier: BSD-3-Clause
// One amp-ghost run: set-up, the time-stepping loop driving a comm strategy, verification, and the
// measured numbers that the report turns into the summary and the JSON results.
#pragma once

#include <amp/miniapps/ghost/decomposition.hpp>
#include <amp/miniapps/ghost/ghost_config.hpp>

#include <amp/comm/combination.hpp>
#include <amp/comm/exchange_plan.hpp>

#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/loop_report.hpp>

namespace amp::ghost {

struct GhostMeasurements : LoopMeasurements {
  int checked_variables = 0;
};

// The set-up of rank `rank` of `ranks`: its block and neighbours, and its exchange plan. The real run
// and --plan-only both build it here.
struct GhostSetup {
  Decomposition decomposition;
  comm::ExchangePlan plan;
};
GhostSetup build_ghost_setup(const GhostConfig& config, int rank, int ranks);

GhostMeasurements run_ghost(const GhostConfig& config, const Decomposition& decomposition, comm::ExchangePlan plan,
                            const Environment& env, const comm::Combination& combination);

}  // namespace amp::ghost
