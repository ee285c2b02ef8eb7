// SPDX-License-Identifier: BSD-3-Clause
// One MPI_Allreduce of [sums..., outflows...] per check; the comparison is done on every rank with the
// same reduced numbers, so every rank reaches the same verdict.
#include <amp/miniapps/common/conservation.hpp>

#include <mpi.h>

#include <fmt/format.h>

#include <cmath>

namespace amp {

double Conservation::relative_error(int v, double global_sum, double global_outflow) const {
  const double reference = std::fabs(injected[v]) > 0 ? std::fabs(injected[v]) : 1.0;
  return std::fabs(global_sum + global_outflow - injected[v]) / reference;
}

double Conservation::check(const std::vector<double>& local_sums, int count, int& worst_variable) {
  std::vector<double> local(2 * count), global(2 * count);
  for (int v = 0; v < count; ++v) {
    local[v] = local_sums[v];
    local[count + v] = local_outflow[v];
  }
  MPI_Allreduce(local.data(), global.data(), 2 * count, MPI_DOUBLE, MPI_SUM, comm_);
  double worst = 0.0;
  worst_variable = -1;
  for (int v = 0; v < count; ++v) {
    const double error = relative_error(v, global[v], global[count + v]);
    if (!(error <= worst) || worst_variable < 0) {
      worst = error;
      worst_variable = v;
    }
  }
  ++checks;
  if (!(worst <= worst_error)) worst_error = worst;
  return worst;
}

void Conservation::judge(double error, int variable, double tolerance, const std::string& when) {
  if (error <= tolerance || !failure.empty()) return;
  failure = fmt::format("verification failed at {}: variable {} relative error {:.3e} > {:.0e}", when, variable, error,
                        tolerance);
}

}  // namespace amp
