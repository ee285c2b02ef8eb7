// SPDX-License-Identifier: BSD-3-Clause
// Node layout and library versions of a micro-benchmark run.
#include <amp/miniapps/micro/run_context.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>

namespace amp::micro {

int ranks_on_my_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

RunContext describe_run_context(MPI_Comm comm) {
  RunContext context;
  MPI_Comm_size(comm, &context.ranks);
  const int on_node = ranks_on_my_node(comm);
  MPI_Allreduce(&on_node, &context.max_ranks_per_node, 1, MPI_INT, MPI_MAX, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int leaders = 0;
  int i_lead = 0;
  {
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_rank = 0;
    MPI_Comm_rank(node, &node_rank);
    i_lead = node_rank == 0 ? 1 : 0;
    MPI_Comm_free(&node);
  }
  MPI_Allreduce(&i_lead, &leaders, 1, MPI_INT, MPI_SUM, comm);
  context.nodes = leaders;
  context.host_threads_per_rank = Kokkos::DefaultHostExecutionSpace().concurrency();
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  context.mpi_library = std::string(version, static_cast<std::size_t>(length));
  const auto line_end = context.mpi_library.find('\n');
  if (line_end != std::string::npos) context.mpi_library.resize(line_end);
  std::replace(context.mpi_library.begin(), context.mpi_library.end(), '\t', ' ');
  return context;
}

nlohmann::ordered_json RunContext::to_json() const {
  return {{"ranks", ranks},
          {"nodes", nodes},
          {"max_ranks_per_node", max_ranks_per_node},
          {"host_threads_per_rank", host_threads_per_rank},
          {"mpi_library", mpi_library}};
}

}  // namespace amp::micro
