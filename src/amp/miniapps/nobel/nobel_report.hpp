// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel's results: reduction of per-rank numbers into the JSON every proxy writes (plus blocks per
// rank, AMR statistics, migrated bytes, message rate) and the human summary printed by rank 0.
#pragma once

#include <amp/miniapps/nobel/nobel_config.hpp>
#include <amp/miniapps/nobel/nobel_run.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace amp::nobel {

// Collective: every rank calls it; the result is complete on every rank.
nlohmann::json nobel_results(const NobelConfig& config, const NobelMeasurements& m, int ranks, MPI_Comm comm);
void print_summary(const nlohmann::json& results);

}  // namespace amp::nobel
