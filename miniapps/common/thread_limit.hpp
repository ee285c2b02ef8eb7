// The host thread count a rank asks Kokkos for (OMP_NUM_THREADS, or --kokkos-threads=N /
// --kokkos-num-threads=N), checked before Kokkos::initialize: more than its OpenMP back end holds
// (512 in Kokkos 3.4) crashes inside Kokkos, and more than the process may start fails there too.
#pragma once

#include <string>
#include <vector>

namespace amp {

// "" when the count fits, else one line naming where the count came from and the limit.
std::string thread_count_problem(const std::vector<char*>& kokkos_arguments);

}  // namespace amp
