// One amp-sage run: set-up (partition, index lists, faces, strategy), the time-stepping loop, the
// conservation check and the measured numbers that the report turns into the summary and JSON.
#pragma once

#include "local_mesh.hpp"
#include "sage_config.hpp"

#include <comm/traffic.hpp>
#include <environment.hpp>

#include <cstdint>
#include <string>

namespace amp::sage {

struct SageMeasurements {
  double setup_seconds = 0;  // this rank's partition + index lists + faces + strategy construction
  double loop_seconds = 0;
  double compute_seconds = 0;
  double collective_seconds = 0;
  comm::ExchangeTimes exchange;
  comm::Traffic traffic;
  std::int64_t faces = 0;         // faces this rank computes per variable and step
  std::int64_t send_runs = 0;     // send pieces (runs of consecutive cells) over all links
  std::int64_t send_cells = 0;    // cells sent per variable and step over all links
  std::uint64_t checksum = 0;     // global
  bool verified = false;
  double worst_error = 0;
  int checks = 0;
  std::string failure;  // empty when verified
};

SageMeasurements run_sage(const SageConfig& config, const LocalMesh& mesh, const Environment& env);

}  // namespace amp::sage
