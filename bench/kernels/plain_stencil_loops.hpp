// SPDX-License-Identifier: BSD-3-Clause
// The yardstick for AMP's sweeps: each stencil as the loop an HPC programmer writes in five minutes, on
// the same ghosted layout (raw pointers, x fastest), with the same sum, outflow and face copies. A triple
// loop with `omp simd` on x, split over planes by `omp parallel for` when there is more than one thread.
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/yz_face_copies.hpp>

#include <omp.h>

#include <vector>

namespace amp::bench {

// What the plain loop does besides the sweep: the outflow through the global sides (empty sides: none)
// and the yz face copies (empty: none), as amp-ghost asks of AMP's sweep.
struct PlainExtras {
  kernels::GlobalSides sides;
  kernels::YzFaceCopies<Kokkos::HostSpace> faces;
};

struct PlainSums {
  double interior = 0.0;
  double outflow = 0.0;
};

// How the plain 3D27PT loop adds: the 27 neighbours one after another, or as the usual separable box
// sum (three z-sums per row, their column sums, then three adjacent columns, in the order of
// kernels/box_sum_sweep.hpp, without its rolling of z-sums), whose bits match AMP's. The other stencils
// add every cell's neighbours in the order kernels/stencil.hpp does (so the bits match) either way.
enum class PlainForm { Direct, BoxSum };

template <kernels::Stencil S, PlainForm F>
PlainSums plain_sweep(const kernels::Grid<>& in_view, const kernels::Grid<>& out_view, const kernels::BlockExtent& e,
                      const PlainExtras& extras) {
  using kernels::Stencil;
  constexpr double w = 1.0 / kernels::stencil_points(S);
  const int nx = e.nx, ny = e.ny, nz = e.nz;
  const long sj = nx + 2, sk = sj * (ny + 2);
  const double* in = in_view.data();
  double* out = out_view.data();
  const bool outflow = extras.sides.any();
  const kernels::Grid<>::const_type in_cells = in_view;
  double sum = 0.0, flow = 0.0;
#pragma omp parallel reduction(+ : sum, flow) if (omp_get_max_threads() > 1)
  {
    std::vector<double> z(3 * sj), column(sj);
#pragma omp for schedule(static)
    for (int k = 1; k <= nz; ++k) {
      for (int j = 1; j <= ny; ++j) {
        const double* c = in + k * sk + j * sj;
        const double* s = c - sj;
        const double* n = c + sj;
        const double* b = c - sk;
        const double* t = c + sk;
        double* o = out + k * sk + j * sj;
        double line = 0.0;
        if constexpr (S == Stencil::ThreeD27Pt && F == PlainForm::Direct) {
#pragma omp simd reduction(+ : line)
          for (int i = 1; i <= nx; ++i) {
            double v = 0.0;
            for (int dk = -1; dk <= 1; ++dk)
              for (int dj = -1; dj <= 1; ++dj)
                for (int di = -1; di <= 1; ++di) v += c[i + di + dj * sj + dk * sk];
            v *= w;
            o[i] = v;
            line += v;
          }
        } else if constexpr (S == Stencil::ThreeD27Pt) {
          for (int r = 0; r < 3; ++r) {
            const double* row = c + (r - 1) * sj;
            double* zr = z.data() + r * sj;
#pragma omp simd
            for (int i = 0; i < nx + 2; ++i) zr[i] = row[i - sk] + row[i] + row[i + sk];
          }
#pragma omp simd
          for (int i = 0; i < nx + 2; ++i) column[i] = z[i] + z[sj + i] + z[2 * sj + i];
#pragma omp simd reduction(+ : line)
          for (int i = 1; i <= nx; ++i) {
            const double v = (column[i - 1] + column[i] + column[i + 1]) * w;
            o[i] = v;
            line += v;
          }
        } else {
#pragma omp simd reduction(+ : line)
          for (int i = 1; i <= nx; ++i) {
            double v;
            if constexpr (S == Stencil::ThreeD7Pt)
              v = (b[i] + s[i] + c[i - 1] + c[i] + c[i + 1] + n[i] + t[i]) * w;
            else if constexpr (S == Stencil::TwoD5Pt)
              v = (s[i] + c[i - 1] + c[i] + c[i + 1] + n[i]) * w;
            else
              v = (s[i - 1] + s[i] + s[i + 1] + c[i - 1] + c[i] + c[i + 1] + n[i - 1] + n[i] + n[i + 1]) * w;
            o[i] = v;
            line += v;
          }
        }
        sum += line;
        if (extras.faces.wants_low()) extras.faces.write_first(j, k, ny, o[1]);
        if (extras.faces.wants_high()) extras.faces.write_last(j, k, ny, o[nx]);
        if (outflow) flow += kernels::detail::outflow_of_line<S>(in_cells, j, k, e, extras.sides);
      }
    }
  }
  return {sum, flow};
}

inline PlainSums plain_sweep(kernels::Stencil s, PlainForm form, const kernels::Grid<>& in, const kernels::Grid<>& out,
                             const kernels::BlockExtent& e, const PlainExtras& extras) {
  using kernels::Stencil;
  switch (s) {
    case Stencil::TwoD5Pt:
      return plain_sweep<Stencil::TwoD5Pt, PlainForm::Direct>(in, out, e, extras);
    case Stencil::TwoD9Pt:
      return plain_sweep<Stencil::TwoD9Pt, PlainForm::Direct>(in, out, e, extras);
    case Stencil::ThreeD7Pt:
      return plain_sweep<Stencil::ThreeD7Pt, PlainForm::Direct>(in, out, e, extras);
    case Stencil::ThreeD27Pt:
      break;
  }
  return form == PlainForm::Direct ? plain_sweep<Stencil::ThreeD27Pt, PlainForm::Direct>(in, out, e, extras)
                                   : plain_sweep<Stencil::ThreeD27Pt, PlainForm::BoxSum>(in, out, e, extras);
}

}  // namespace amp::bench
