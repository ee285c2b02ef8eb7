// SPDX-License-Identifier: BSD-3-Clause
// Cross-rank statistics for reports: min / avg / max of a per-rank value, and sums of counters.
// Collective calls on the run's communicator, made after the traced region.
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>

#include <cstdint>

namespace amp {

struct MinAvgMax {
  double min = 0, avg = 0, max = 0;
  nlohmann::json to_json() const { return {{"min", min}, {"avg", avg}, {"max", max}}; }
};

MinAvgMax min_avg_max(MPI_Comm comm, double local_value);
std::uint64_t sum_over_ranks(MPI_Comm comm, std::uint64_t local_value);
double max_over_ranks(MPI_Comm comm, double local_value);

}  // namespace amp
