// SPDX-License-Identifier: BSD-3-Clause
// Kernel bandwidth benchmark: effective GB/s of the 3D7PT and 3D27PT sweeps as amp-ghost runs them (16 B
// counted per cell: one read of the input, one write of the output, in place or into a second grid) against
// a Kokkos STREAM triad on arrays of the same size, same run.
// Usage: bench_stencil_bandwidth [n = 160, or a list: 16,24,32] [repetitions = 10] [variables = 1]: each
// repetition sweeps `variables` (input, output) pairs of n^3 blocks in turn, as amp-ghost does; enough of
// them that they do not fit in the caches measure the sweep from memory (the triad arrays are as big in
// total). Also prints the sweep with the outflow fused in, and with both yz faces copied into send slots,
// and, for each of the four stencils, AMP's sweep against a plain loop (plain_stencil_loops.hpp).
#include "plain_stencil_loops.hpp"

#include <amp/kernels/stencil.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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

void bandwidth_against_triad(int n, int repetitions, int variables) {
  const amp::kernels::BlockExtent e{n, n, n};
  const std::size_t cells = static_cast<std::size_t>(e.storage()) * variables;

  Kokkos::View<double*> a("a", cells), b("b", cells), c("c", cells);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const double triad = best_seconds(repetitions, [&] {
    Kokkos::parallel_for(
        "triad", cells, KOKKOS_LAMBDA(std::size_t i) { a(i) = b(i) + 3.0 * c(i); });
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
  // The sweep as amp-ghost runs it (in place where StencilSweeper chooses to), and where that is in place,
  // the sweep into a second grid alternated with it.
  for (auto s : {amp::kernels::Stencil::ThreeD7Pt, amp::kernels::Stencil::ThreeD27Pt}) {
    double sink = 0;
    const amp::kernels::StencilSweeper<> sweeper(s, e);
    const auto as_amp_ghost = [&] {
      for (int v = 0; v < variables; ++v) {
        sink += sweeper.sweep(in[v], out[v], {}).interior;
        sweeper.make_current(in[v], out[v]);
      }
    };
    const auto into_second_grid = [&] {
      for (int v = 0; v < variables; ++v) sink += amp::kernels::apply_stencil(s, in[v], out[v], e);
    };
    const auto [t, t_second] = sweeper.in_place()
                                   ? best_seconds_alternating(repetitions, as_amp_ghost, into_second_grid)
                                   : std::pair(best_seconds(repetitions, as_amp_ghost), 0.0);
    const double gbs = sweep_bytes / t * 1e-9;
    std::printf("  %-8s %10.2f GB/s  (%.3f ms, 2 x 8 B per cell)  %.0f%% of triad  %.2f Gcell/s%s\n",
                amp::kernels::stencil_name(s).c_str(), gbs, t * 1e3, 100.0 * gbs / triad_gbs,
                e.cells() * variables / t * 1e-9, sweeper.in_place() ? ", in place" : "");
    if (sweeper.in_place())
      std::printf("  %-8s %10.2f GB/s  (%.3f ms) into a second grid, alternated: in place %.2fx as fast\n",
                  amp::kernels::stencil_name(s).c_str(), sweep_bytes / t_second * 1e-9, t_second * 1e3, t_second / t);
    if (sink < 0) std::printf("%f\n", sink);
  }
  // The sweep as amp-ghost runs it on a rank whose block touches the global boundary on all sides.
  amp::kernels::GlobalSides all_sides;
  for (int a = 0; a < 3; ++a) all_sides.low[a] = all_sides.high[a] = true;
  for (auto s : {amp::kernels::Stencil::ThreeD7Pt, amp::kernels::Stencil::ThreeD27Pt}) {
    double sink = 0;
    const double t = best_seconds(repetitions, [&] {
      for (int v = 0; v < variables; ++v)
        sink += amp::kernels::apply_stencil_with_outflow(s, in[v], out[v], e, all_sides).outflow;
    });
    std::printf("  %-8s %10.2f GB/s  (%.3f ms) with the outflow of all six global sides fused in\n",
                amp::kernels::stencil_name(s).c_str(), sweep_bytes / t * 1e-9, t * 1e3);
    if (sink < 0) std::printf("%f\n", sink);
  }
  // The sweep as amp-ghost runs it with neighbours in x: both new yz faces also written into their own
  // slots, one pair per variable (as the x links' send slots are), against the sweep alone, alternated.
  Kokkos::View<double*> slots("slots", static_cast<std::size_t>(2) * n * n * variables);
  for (auto s : {amp::kernels::Stencil::ThreeD7Pt, amp::kernels::Stencil::ThreeD27Pt}) {
    double sink = 0;
    const auto [alone, with_faces] = best_seconds_alternating(
        repetitions,
        [&] {
          for (int v = 0; v < variables; ++v) sink += amp::kernels::apply_stencil(s, in[v], out[v], e);
        },
        [&] {
          for (int v = 0; v < variables; ++v) {
            double* low = slots.data() + static_cast<std::size_t>(2 * v) * n * n;
            using Face = amp::kernels::YzFaceCopies<>::Face;
            const amp::kernels::YzFaceCopies<> faces{
                Face(low, static_cast<std::size_t>(n) * n),
                Face(low + static_cast<std::size_t>(n) * n, static_cast<std::size_t>(n) * n)};
            sink += amp::kernels::apply_stencil_with_outflow(s, in[v], out[v], e, {}, faces).interior;
          }
        });
    std::printf(
        "  %-8s %10.2f GB/s  (%.3f ms) with both yz faces copied into send slots: %+.1f%% time against"
        " %.3f ms without, alternated\n",
        amp::kernels::stencil_name(s).c_str(), sweep_bytes / with_faces * 1e-9, with_faces * 1e3,
        100.0 * (with_faces / alone - 1.0), alone * 1e3);
    if (sink < 0) std::printf("%f\n", sink);
  }
}

// AMP's sweep of each stencil against the plain loop, alternated, twice: the sweep and its sum alone, and
// as amp-ghost runs it on rank 0 of a 2x1x1 grid (outflow through the five global sides, the yz face
// towards the neighbour copied into a send slot). Gcell/s are best of `repetitions`; "median" is the
// median of the per-repetition ratios (plain time / AMP time), with the lowest and highest. "bits" says
// whether both wrote the same output (for 3D27PT, the plain box sum's, which adds in AMP's order).
void against_plain_loops(int n, int repetitions, int variables) {
  using amp::kernels::Stencil;
  const amp::kernels::BlockExtent e{n, n, n};
  std::vector<amp::kernels::Grid<>> in, out;
  for (int v = 0; v < variables; ++v) {
    in.emplace_back("in", n + 2, n + 2, n + 2);
    out.emplace_back("out", n + 2, n + 2, n + 2);
    auto host = Kokkos::create_mirror_view(in.back());
    for (int k = 0; k < n + 2; ++k)
      for (int j = 0; j < n + 2; ++j)
        for (int i = 0; i < n + 2; ++i) host(i, j, k) = 1.0 + 1e-3 * ((i * 7 + j * 13 + k * 29 + v) % 101);
    Kokkos::deep_copy(in.back(), host);
  }
  amp::kernels::GlobalSides five_sides;
  for (int a = 0; a < 3; ++a) five_sides.low[a] = five_sides.high[a] = true;
  five_sides.high[0] = false;
  Kokkos::View<double*> slots("slots", static_cast<std::size_t>(n) * n * variables);
  const auto faces_of = [&](int v) {
    using Face = amp::kernels::YzFaceCopies<>::Face;
    return amp::kernels::YzFaceCopies<>{
        Face(), Face(slots.data() + static_cast<std::size_t>(v) * n * n, static_cast<std::size_t>(n) * n)};
  };
  std::printf("AMP against a plain loop: %d^3 interior x %d variables, %d threads, best of %d, alternated\n", n,
              variables, Kokkos::DefaultExecutionSpace().concurrency(), repetitions);
  std::printf("  %-8s %-22s %11s %13s %10s %22s %5s\n", "stencil", "sweep", "AMP Gcell/s", "plain Gcell/s", "AMP/plain",
              "median (min-max)", "bits");
  for (auto s : {Stencil::TwoD5Pt, Stencil::TwoD9Pt, Stencil::ThreeD7Pt, Stencil::ThreeD27Pt}) {
    for (const bool as_ghost : {false, true}) {
      double sink = 0;
      const auto amp_sweep = [&] {
        for (int v = 0; v < variables; ++v) {
          if (as_ghost)
            sink += amp::kernels::apply_stencil_with_outflow(s, in[v], out[v], e, five_sides, faces_of(v)).outflow;
          else
            sink += amp::kernels::apply_stencil(s, in[v], out[v], e);
        }
      };
      const auto plain_sweep = [&](amp::bench::PlainForm form) {
        for (int v = 0; v < variables; ++v) {
          const amp::bench::PlainExtras extras =
              as_ghost ? amp::bench::PlainExtras{five_sides, faces_of(v)} : amp::bench::PlainExtras{};
          sink += amp::bench::plain_sweep(s, form, in[v], out[v], e, extras).outflow;
        }
      };
      // Same bits: AMP's output of the last variable, then the plain loop's that adds in the same order.
      amp_sweep();
      Kokkos::fence();
      auto amp_out = Kokkos::create_mirror(out.back());
      Kokkos::deep_copy(amp_out, out.back());
      plain_sweep(amp::bench::PlainForm::BoxSum);
      auto plain_out = Kokkos::create_mirror_view(out.back());
      Kokkos::deep_copy(plain_out, out.back());
      const bool same = std::memcmp(amp_out.data(), plain_out.data(), amp_out.span() * sizeof(double)) == 0;

      // 3D27PT has two plain forms; the faster is the yardstick. Each repetition times all, in turn.
      std::vector<amp::bench::PlainForm> forms{amp::bench::PlainForm::Direct};
      if (s == Stencil::ThreeD27Pt) forms.push_back(amp::bench::PlainForm::BoxSum);
      std::vector<double> best_plain(forms.size(), 1e30), amp_times, plain_times;
      double best_amp = 1e30;
      for (int r = 0; r < repetitions; ++r) {
        amp_times.push_back(best_seconds(1, amp_sweep));
        best_amp = std::min(best_amp, amp_times.back());
        double fastest = 1e30;
        for (std::size_t f = 0; f < forms.size(); ++f) {
          const double t = best_seconds(1, [&] { plain_sweep(forms[f]); });
          best_plain[f] = std::min(best_plain[f], t);
          fastest = std::min(fastest, t);
        }
        plain_times.push_back(fastest);
      }
      const std::size_t yardstick = std::min_element(best_plain.begin(), best_plain.end()) - best_plain.begin();
      std::vector<double> ratios;
      for (int r = 0; r < repetitions; ++r) ratios.push_back(plain_times[r] / amp_times[r]);
      std::sort(ratios.begin(), ratios.end());
      const double cells = static_cast<double>(e.cells()) * variables;
      char median[64];
      std::snprintf(median, sizeof median, "%.2f (%.2f-%.2f)", ratios[ratios.size() / 2], ratios.front(),
                    ratios.back());
      std::printf("  %-8s %-22s %11.3f %13.3f %10.2f %22s %5s  %s\n", amp::kernels::stencil_name(s).c_str(),
                  as_ghost ? "+outflow 5 sides+face" : "+sum", cells / best_amp * 1e-9,
                  cells / best_plain[yardstick] * 1e-9, best_plain[yardstick] / best_amp, median,
                  same ? "same" : "DIFF", forms[yardstick] == amp::bench::PlainForm::BoxSum ? "plain: box sum" : "");
      if (sink < 0) std::printf("%f\n", sink);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::vector<int> sizes;
  for (const char* p = argc > 1 ? argv[1] : "160"; *p != '\0';) {
    char* end = nullptr;
    sizes.push_back(static_cast<int>(std::strtol(p, &end, 10)));
    if (end == p || (*end != ',' && *end != '\0') || sizes.back() < 1) sizes.back() = 0;
    if (end == p || sizes.back() == 0) break;
    p = *end == ',' ? end + 1 : end;
  }
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 10;
  const int variables = argc > 3 ? std::atoi(argv[3]) : 1;
  if (sizes.empty() || sizes.back() < 1 || repetitions < 1 || variables < 1) {
    std::fprintf(stderr,
                 "bench_stencil_bandwidth: error: n (or a comma-separated list of n), repetitions and variables"
                 " must be >= 1\n");
    return 2;
  }
  for (const int n : sizes) {
    bandwidth_against_triad(n, repetitions, variables);
    against_plain_loops(n, repetitions, variables);
  }
  return 0;
}
