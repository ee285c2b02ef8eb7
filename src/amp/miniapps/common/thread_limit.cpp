// SPDX-License-Identifier: BSD-3-Clause
// Kokkos's OpenMP thread-pool size and the process limit (RLIMIT_NPROC) against the requested count;
// MPI's thread level against what Kokkos' host threads need.
#include <amp/miniapps/common/thread_limit.hpp>

#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>
#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

namespace amp {

namespace {

// The most host threads one process may run here: Kokkos's pool size, and the user's process limit.
long thread_limit(std::string& why) {
  long limit = 1L << 30;
  why = "this node's limit";
#if defined(KOKKOS_ENABLE_OPENMP)
  limit = Kokkos::Impl::OpenMPExec::MAX_THREAD_COUNT;
  why = "Kokkos's OpenMP back end";
#endif
  rlimit processes{};
  if (getrlimit(RLIMIT_NPROC, &processes) == 0 && processes.rlim_cur != RLIM_INFINITY &&
      static_cast<long>(processes.rlim_cur) < limit) {
    limit = static_cast<long>(processes.rlim_cur);
    why = "this node's process limit (ulimit -u)";
  }
  return limit;
}

}  // namespace

std::string thread_count_problem(const std::vector<std::string>& kokkos_arguments) {
  long requested = 0;
  std::string source;
  for (const std::string& argument : kokkos_arguments) {
    for (const char* flag : {"--kokkos-threads=", "--kokkos-num-threads="}) {
      if (argument.rfind(flag, 0) == 0) {
        requested = std::strtol(argument.c_str() + std::strlen(flag), nullptr, 10);
        source = argument;
      }
    }
  }
#if defined(KOKKOS_ENABLE_OPENMP)
  if (source.empty()) {
    requested = omp_get_max_threads();
    const char* variable = std::getenv("OMP_NUM_THREADS");
    source = fmt::format("OMP_NUM_THREADS={}", variable != nullptr ? variable : std::to_string(requested));
  }
#endif
  std::string why;
  const long limit = thread_limit(why);
  if (requested <= limit) return "";
  return fmt::format("{} asks for {} host threads per rank; {} allows at most {}", source, requested, why, limit);
}

std::string mpi_thread_level_problem(int provided) {
  if (provided >= MPI_THREAD_FUNNELED) return "";
  return fmt::format(
      "this MPI provides thread level {} (MPI_THREAD_SINGLE); AMP needs MPI_THREAD_FUNNELED, since "
      "Kokkos' host threads run while the main thread calls MPI",
      provided);
}

}  // namespace amp
