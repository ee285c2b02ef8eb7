// SPDX-License-Identifier: BSD-3-Clause
// One amp-sage run: set-up (partition, index lists, faces, strategy), the time-stepping loop, the
// conservation check and the measured numbers that the report turns into the summary and JSON.
#pragma once

#include <amp/miniapps/sage/local_mesh.hpp>
#include <amp/miniapps/sage/sage_config.hpp>

#include <amp/comm/combination.hpp>
#include <amp/comm/exchange_plan.hpp>

#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/loop_report.hpp>

#include <cstdint>
#include <string>

namespace amp::sage {

struct SageMeasurements : LoopMeasurements {
  double setup_seconds = 0;     // this rank's partition + index lists + faces + strategy construction
  std::int64_t faces = 0;       // faces this rank computes per variable and step
  std::int64_t send_runs = 0;   // send pieces (runs of consecutive cells) over all links
  std::int64_t send_cells = 0;  // cells sent per variable and step over all links
};

// The set-up of rank `rank` of `ranks`: the partition's share of the mesh and the exchange plan. The
// real run and --plan-only both build it here.
struct SageSetup {
  LocalMesh mesh;
  comm::ExchangePlan plan;
};
SageSetup build_sage_setup(const SageConfig& config, int rank, int ranks);

SageMeasurements run_sage(const SageConfig& config, const LocalMesh& mesh, comm::ExchangePlan plan,
                          const Environment& env, const comm::Combination& combination);

}  // namespace amp::sage
