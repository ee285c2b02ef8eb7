// SPDX-License-Identifier: BSD-3-Clause
// Verification bookkeeping shared by the proxies: per variable, what was injected (initial field,
// sources), what flowed out through the global boundary, and the check sum(owned) + outflow == injected.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace amp {

struct Conservation {
  std::vector<double> injected;       // global: initial sum + spikes
  std::vector<double> local_outflow;  // this rank's accumulated outflow
  double worst_error = 0.0;           // largest relative error seen in any check
  int checks = 0;

  // The checks reduce over `comm`.
  Conservation(int num_vars, MPI_Comm comm) : injected(num_vars, 0.0), local_outflow(num_vars, 0.0), comm_(comm) {}

  // Relative error of variable v given the global interior sum and global outflow.
  double relative_error(int v, double global_sum, double global_outflow) const;

  // Reduces the given local sums and outflows of variables [0, count) (one MPI_Allreduce) and
  // records the errors; returns the worst relative error of this check and the worst variable.
  double check(const std::vector<double>& local_sums, int count, int& worst_variable);

  // Keeps the first failure: when `error` exceeds `tolerance`, records "verification failed at
  // <when>: variable v relative error e > tol". Every rank judges the same reduced numbers.
  void judge(double error, int variable, double tolerance, const std::string& when);
  std::string failure;  // empty while every check passed

 private:
  MPI_Comm comm_;
};

}  // namespace amp
