// SPDX-License-Identifier: BSD-3-Clause
// Repetition timing and the cross-rank reductions behind every micro-benchmark's statistics.
#include <amp/miniapps/micro/repetitions.hpp>

#include <algorithm>
#include <numeric>

namespace amp::micro {

MinAvgMax slowest_rank_statistics(const std::vector<double>& seconds_per_repetition, MPI_Comm comm) {
  std::vector<double> slowest(seconds_per_repetition.size());
  MPI_Allreduce(seconds_per_repetition.data(), slowest.data(), static_cast<int>(slowest.size()), MPI_DOUBLE, MPI_MAX,
                comm);
  MinAvgMax stats;
  if (slowest.empty()) return stats;
  stats.min = *std::min_element(slowest.begin(), slowest.end());
  stats.max = *std::max_element(slowest.begin(), slowest.end());
  stats.avg = std::accumulate(slowest.begin(), slowest.end(), 0.0) / static_cast<double>(slowest.size());
  return stats;
}

MinAvgMax time_per_iteration(int warmup, int repetitions, int iterations, MPI_Comm comm,
                             const std::function<void(int iterations)>& run_iterations) {
  if (warmup > 0) run_iterations(warmup);
  std::vector<double> seconds(static_cast<std::size_t>(repetitions));
  for (double& repetition_seconds : seconds) {
    MPI_Barrier(comm);
    const double start = wall_seconds();
    run_iterations(iterations);
    repetition_seconds = (wall_seconds() - start) / iterations;
  }
  return slowest_rank_statistics(seconds, comm);
}

bool true_on_every_rank(bool local, MPI_Comm comm) {
  int mine = local ? 1 : 0;
  int all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
  return all != 0;
}

}  // namespace amp::micro
