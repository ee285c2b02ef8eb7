// SPDX-License-Identifier: BSD-3-Clause
// amp-sage's outputs: the human summary (rank 0) and the JSON results, from measurements reduced
// over ranks (collective: every rank calls it).
#pragma once

#include <amp/miniapps/sage/local_mesh.hpp>
#include <amp/miniapps/sage/sage_config.hpp>
#include <amp/miniapps/sage/sage_run.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace amp::sage {

nlohmann::json sage_results(const SageConfig& config, const LocalMesh& mesh, const SageMeasurements& m, int ranks,
                            MPI_Comm comm);
void print_summary(const nlohmann::json& results);

}  // namespace amp::sage
