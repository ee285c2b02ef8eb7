// SPDX-License-Identifier: BSD-3-Clause
// What one Kokkos launch costs on the host back end, with nothing to do: an empty parallel_for, an
// empty parallel_reduce into a double, and a Kokkos::fence(). Median and best of many, in microseconds.
// Usage: bench_kokkos_launch [repetitions = 20000]. step_overhead.py multiplies these by the launches
// amp-ghost makes per step.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

template <class F>
void report(const char* what, int repetitions, F&& f) {
  std::vector<double> us(repetitions);
  for (int r = 0; r < repetitions; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    us[r] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  std::sort(us.begin(), us.end());
  std::printf("  %-16s median %7.3f us  best %7.3f us\n", what, us[us.size() / 2], us.front());
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 20000;
  if (repetitions < 1) {
    std::fprintf(stderr, "bench_kokkos_launch: error: repetitions must be >= 1\n");
    return 2;
  }
  Kokkos::View<double*> sink("sink", 1);
  std::printf("Kokkos launch cost, %d threads, %d repetitions\n", Kokkos::DefaultExecutionSpace().concurrency(),
              repetitions);
  report("parallel_for", repetitions, [&] {
    Kokkos::parallel_for(
        "amp::empty_for", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int i) { sink(i) += 1.0; });
  });
  double total = 0;
  report("parallel_reduce", repetitions, [&] {
    double s = 0;
    Kokkos::parallel_reduce(
        "amp::empty_reduce", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int i, double& v) { v += sink(i); }, s);
    total += s;
  });
  report("fence", repetitions, [] { Kokkos::fence(); });
  if (total < 0) std::printf("%f\n", total);
  return 0;
}
