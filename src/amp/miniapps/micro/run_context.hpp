// SPDX-License-Identifier: BSD-3-Clause
// Where a micro-benchmark ran: rank count, ranks per node (shared-memory domain), MPI library and
// Kokkos host threads per rank, for the JSON results and the table heading.
#pragma once

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace amp::micro {

struct RunContext {
  int ranks = 1;
  int nodes = 1;
  int max_ranks_per_node = 1;
  int host_threads_per_rank = 1;
  std::string mpi_library;
  nlohmann::ordered_json to_json() const;
};

// Collective.
RunContext describe_run_context(MPI_Comm comm);

// Ranks sharing this rank's node (collective; MPI_Comm_split_type SHARED).
int ranks_on_my_node(MPI_Comm comm);

}  // namespace amp::micro
