// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's outputs: the human summary (rank 0) and the JSON results, from measurements reduced
// over ranks (collective: every rank calls it).
#pragma once

#include <amp/miniapps/ghost/decomposition.hpp>
#include <amp/miniapps/ghost/ghost_config.hpp>
#include <amp/miniapps/ghost/ghost_run.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace amp::ghost {

nlohmann::json ghost_results(const GhostConfig& config, const Decomposition& d, const GhostMeasurements& m, int ranks,
                             MPI_Comm comm);
void print_summary(const nlohmann::json& results);

}  // namespace amp::ghost
