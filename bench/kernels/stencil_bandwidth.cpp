// Kernel bandwidth benchmark: effective GB/s of the 3D7PT and 3D27PT sweeps (one read of the input,
// one write of the output per cell) against a Kokkos STREAM triad on arrays of the same size, same run.
// Usage: bench_stencil_bandwidth [n = 160] [repetitions = 10] [variables = 1]: each repetition sweeps
// `variables` (input, output) pairs of n^3 blocks in turn, as amp-ghost does; enough of them that they
// do not fit in the caches measure the sweep from memory (the triad arrays are as big in total). Also
// prints the sweep with the outflow fused in, and with both yz faces copied into send slots.
#include <kernels/stencil.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

template <class F>
double best_seconds(int repetitions, F&& f) {
  f();  // warm-up
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// Best seconds of f and of g, measured in alternation so that both see the same phases of the machine.
template <class F, class G>
std::pair<double, double> best_seconds_alternating(int repetitions, F&& f, G&& g) {
  double best_f = 1e30, best_g = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    best_f = std::min(best_f, best_seconds(1, f));
    best_g = std::min(best_g, best_seconds(1, g));
  }
  return {best_f, best_g};
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 160;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 10;
  const int variables = argc > 3 ? std::atoi(argv[3]) : 1;
  if (n < 1 || repetitions < 1 || variables < 1) {
    std::fprintf(stderr, "bench_stencil_bandwidth: error: n, repetitions and variables must be >= 1\n");
    return 2;
  }
  const amp::kernels::BlockExtent e{n, n, n};
  const std::size_t cells = static_cast<std::size_t>(e.storage()) * variables;

  Kokkos::View<double*> a("a", cells), b("b", cells), c("c", cells);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const double triad = best_seconds(repetitions, [&] {
    Kokkos::parallel_for("triad", cells, KOKKOS_LAMBDA(std::size_t i) { a(i) = b(i) + 3.0 * c(i); });
  });
  const double triad_gbs = 3.0 * 8.0 * cells / triad * 1e-9;

  std::vector<amp::kernels::Grid<>> in, out;
  for (int v = 0; v < variables; ++v) {
    in.emplace_back("in", n + 2, n + 2, n + 2);
    out.emplace_back("out", n + 2, n + 2, n + 2);
    Kokkos::deep_copy(in.back(), 1.0);
  }
  const double sweep_bytes = 2.0 * 8.0 * e.cells() * variables;
  std::printf("stencil bandwidth: %d^3 interior x %d variables, %d threads, best of %d\n", n, variables,
              Kokkos::DefaultExecutionSpace().concurrency(), repetitions);
  std::printf("  %-8s %10.2f GB/s  (%.3f ms, 3 x 8 B per element)\n", "triad", triad_gbs, triad * 1e3);
  for (auto s : {amp::kernels::Stencil::ThreeD7Pt, amp::kernels::Stencil::ThreeD27Pt}) {
    double sink = 0;
    const double t = best_seconds(repetitions, [&] {
      for (int v = 0; v < variables; ++v) sink += amp::kernels::apply_stencil(s, in[v], out[v], e);
    });
    const double gbs = sweep_bytes / t * 1e-9;
    std::printf("  %-8s %10.2f GB/s  (%.3f ms, 2 x 8 B per cell)  %.0f%% of triad  %.2f Gcell/s\n",
                amp::kernels::stencil_name(s).c_str(), gbs, t * 1e3, 100.0 * gbs / triad_gbs,
                e.cells() * variables / t * 1e-9);
    if (sink < 0) std::printf("%f\n", sink);
  }
  // The sweep as amp-ghost runs it on a rank whose block touches the global boundary on all sides.
  amp::kernels::GlobalSides all_sides;
  for (int a = 0; a < 3; ++a) all_sides.low[a] = all_sides.high[a] = true;
  amp::kernels::LineOutflow<> scratch("scratch", n, n);
  for (auto s : {amp::kernels::Stencil::ThreeD7Pt, amp::kernels::Stencil::ThreeD27Pt}) {
    double sink = 0;
    const double t = best_seconds(repetitions, [&] {
      for (int v = 0; v < variables; ++v)
        sink += amp::kernels::apply_stencil_with_outflow(s, in[v], out[v], e, all_sides, scratch).outflow;
    });
    std::printf("  %-8s %10.2f GB/s  (%.3f ms) with the outflow of all six global sides fused in\n",
                amp::kernels::stencil_name(s).c_str(), sweep_bytes / t * 1e-9, t * 1e3);
    if (sink < 0) std::printf("%f\n", sink);
  }
  // The sweep as amp-ghost runs it with neighbours in x: both new yz faces also written into their own
  // slots, one pair per variable (as the x links' send slots are), against the sweep alone, alternated.
  Kokkos::View<double*> slots("slots", static_cast<std::size_t>(2) * n * n * variables);
  amp::kernels::LineOutflow<> no_outflow;
  for (auto s : {amp::kernels::Stencil::ThreeD7Pt, amp::kernels::Stencil::ThreeD27Pt}) {
    double sink = 0;
    const auto [alone, with_faces] = best_seconds_alternating(
        repetitions, [&] { for (int v = 0; v < variables; ++v) sink += amp::kernels::apply_stencil(s, in[v], out[v], e); },
        [&] {
          for (int v = 0; v < variables; ++v) {
            double* low = slots.data() + static_cast<std::size_t>(2 * v) * n * n;
            const amp::kernels::YzFaceCopies faces{low, low + static_cast<std::size_t>(n) * n};
            sink += amp::kernels::apply_stencil_with_outflow(s, in[v], out[v], e, {}, no_outflow, faces).interior;
          }
        });
    std::printf("  %-8s %10.2f GB/s  (%.3f ms) with both yz faces copied into send slots: %+.1f%% time against"
                " %.3f ms without, alternated\n",
                amp::kernels::stencil_name(s).c_str(), sweep_bytes / with_faces * 1e-9, with_faces * 1e3,
                100.0 * (with_faces / alone - 1.0), alone * 1e3);
    if (sink < 0) std::printf("%f\n", sink);
  }
  return 0;
}
