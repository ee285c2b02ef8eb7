// One amp-ghost run: set-up, the time-stepping loop driving a comm strategy, verification, and the
// measured numbers that the report turns into the summary and the JSON results.
#pragma once

#include "decomposition.hpp"
#include "ghost_config.hpp"

#include <comm/traffic.hpp>
#include <environment.hpp>

#include <cstdint>
#include <vector>

namespace amp::ghost {

struct GhostMeasurements {
  double loop_seconds = 0;    // this rank's time-stepping loop
  double compute_seconds = 0;
  double collective_seconds = 0;
  comm::ExchangeTimes exchange;
  comm::Traffic traffic;
  std::uint64_t checksum = 0;  // global
  bool verified = false;
  double worst_error = 0;
  int checks = 0;
  int checked_variables = 0;
  std::string failure;  // empty when verified
};

GhostMeasurements run_ghost(const GhostConfig& config, const Decomposition& decomposition, const Environment& env);

}  // namespace amp::ghost
