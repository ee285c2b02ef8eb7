// SPDX-License-Identifier: BSD-3-Clause
// Timing over repetitions: warm-up iterations untimed, then each repetition timed between barriers;
// a repetition counts as long as its slowest rank, and reports give min/avg/max over repetitions.
#pragma once

#include <amp/miniapps/common/reduction.hpp>

#include <mpi.h>

#include <chrono>
#include <functional>
#include <vector>

namespace amp::micro {

// Wall-clock seconds (steady clock; makes no MPI call that would land in a trace).
inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Per-rank seconds of each repetition, reduced to the slowest rank per repetition (collective), then
// summarised over repetitions.
MinAvgMax slowest_rank_statistics(const std::vector<double>& seconds_per_repetition, MPI_Comm comm);

// Runs `run_iterations(warmup)` untimed, then `repetitions` times `run_iterations(iterations)` timed,
// each preceded by a barrier. Returns seconds per iteration (min/avg/max over repetitions).
MinAvgMax time_per_iteration(int warmup, int repetitions, int iterations, MPI_Comm comm,
                             const std::function<void(int iterations)>& run_iterations);

// True on every rank when `local` is true on every rank (collective).
bool true_on_every_rank(bool local, MPI_Comm comm);

}  // namespace amp::micro
