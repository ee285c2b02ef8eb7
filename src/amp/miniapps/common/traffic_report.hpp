// SPDX-License-Identifier: BSD-3-Clause
// Report pieces every proxy shares: the global message-size histogram as JSON rows (collective)
// and the "min .. avg .. max" text of a min/avg/max JSON object for the human summary.
#pragma once

#include <mpi.h>

#include <amp/comm/traffic.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace amp {

// Sums each rank's histogram (one MPI_Allreduce); rows {min_bytes, max_bytes, count} of non-empty buckets.
nlohmann::json size_histogram_json(MPI_Comm comm, const comm::Traffic& traffic);

// "min 1 avg 2 max 3<unit>" of {"min","avg","max"}, each value times `scale`.
std::string format_min_avg_max(const nlohmann::json& stats, const char* unit, double scale = 1.0);

}  // namespace amp
