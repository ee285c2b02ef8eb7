// SPDX-License-Identifier: BSD-3-Clause
// MPI_Allreduce wrappers behind the report statistics.
#include <amp/miniapps/common/reduction.hpp>

#include <mpi.h>

namespace amp {

MinAvgMax min_avg_max(MPI_Comm comm, double local_value) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  MinAvgMax result;
  MPI_Allreduce(&local_value, &result.min, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&local_value, &result.max, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&local_value, &result.avg, 1, MPI_DOUBLE, MPI_SUM, comm);
  result.avg /= ranks;
  return result;
}

std::uint64_t sum_over_ranks(MPI_Comm comm, std::uint64_t local_value) {
  std::uint64_t total = 0;
  MPI_Allreduce(&local_value, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

double max_over_ranks(MPI_Comm comm, double local_value) {
  double result = 0;
  MPI_Allreduce(&local_value, &result, 1, MPI_DOUBLE, MPI_MAX, comm);
  return result;
}

}  // namespace amp
