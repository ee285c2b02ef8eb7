// SPDX-License-Identifier: BSD-3-Clause
// One amp-nobel run: set-up, the time loop (ghost faces through a comm strategy, batched block update,
// MPI_Allreduce(MIN) of the time step, AMR steps with migration), verification and measured numbers.
#pragma once

#include <amp/miniapps/nobel/face_exchange.hpp>
#include <amp/miniapps/nobel/nobel_config.hpp>

#include <amp/comm/combination.hpp>
#include <amp/comm/traffic.hpp>
#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/loop_report.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace amp::nobel {

// One AMR step: global mesh numbers plus this rank's migration.
struct AmrRecord {
  int after_step = 0;
  int blocks = 0;  // global, after the step
  int refined = 0, coarsened = 0;
  bool balanced = false;
  bool rebalanced = false;    // equal shares of the new mesh, or every rank kept its Morton-key range
  int local_blocks = 0;       // this rank, after the step
  int blocks_received = 0;    // this rank
  double relative_error = 0;  // conservation check right after the step
};

struct NobelMeasurements : LoopMeasurements {
  double amr_seconds = 0;
  comm::ExchangeTimes amr_exchange;  // migration (the stepping ones are in LoopMeasurements)
  comm::Traffic amr_traffic;
  comm::Traffic amr_setup_traffic;  // the size checks of the strategies an AMR step builds
  std::vector<AmrRecord> amr;
  int initial_blocks = 0;  // global
  bool initial_balanced = false;
  int local_blocks = 0;                   // this rank, final mesh
  std::vector<int> blocks_per_level;      // global, final mesh
  int local_faces = 0, remote_faces = 0;  // this rank, final mesh
  double cell_updates = 0;                // this rank, all steps and variables
  double last_time_step = 0;
};

// The set-up of rank `rank` of `ranks`: the replicated starting mesh and this rank's share of it (blocks,
// ghost-face tasks, exchange plan). The real run and --plan-only both build it here.
struct NobelSetup {
  BlockMesh mesh;
  FaceExchange exchange;
};
NobelSetup build_nobel_setup(const NobelConfig& config, int rank, int ranks);

NobelMeasurements run_nobel(const NobelConfig& config, NobelSetup setup, const Environment& env,
                            const comm::Combination& combination);

}  // namespace amp::nobel
