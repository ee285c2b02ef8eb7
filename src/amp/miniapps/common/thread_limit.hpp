// SPDX-License-Identifier: BSD-3-Clause
// The host thread count a rank asks Kokkos for (OMP_NUM_THREADS, or --kokkos-threads=N /
// --kokkos-num-threads=N), checked before Kokkos::initialize: more than its OpenMP back end holds
// (512 in Kokkos 3.4) crashes inside Kokkos, and more than the process may start fails there too. And
// MPI's thread level, which must let those threads run while the main thread calls MPI.
#pragma once

#include <string>
#include <vector>

namespace amp {

// "" when the count fits, else one line naming where the count came from and the limit.
std::string thread_count_problem(const std::vector<std::string>& kokkos_arguments);

// "" when MPI's thread level `provided` is at least MPI_THREAD_FUNNELED (Kokkos' host threads run
// between the main thread's MPI calls), else one line naming the level.
std::string mpi_thread_level_problem(int provided);

}  // namespace amp
