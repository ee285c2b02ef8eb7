// SPDX-License-Identifier: BSD-3-Clause
// Plain serial loops that the Kokkos kernels are checked against: a host grid with the same
// (nx+2)(ny+2)(nz+2) layout, and the stencil written out point by point in the kernel's order.
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/stencil.hpp>
#include "../common/test_execution_space.hpp"

#include <vector>

namespace amp::test {

struct HostGrid {
  kernels::BlockExtent e;
  std::vector<double> v;
  explicit HostGrid(const kernels::BlockExtent& extent) : e(extent), v(extent.storage(), 0.0) {}
  double& operator()(int i, int j, int k) { return v[e.index(i, j, k)]; }
  double operator()(int i, int j, int k) const { return v[e.index(i, j, k)]; }
};

inline kernels::Grid<MemorySpace> to_device(const HostGrid& h) {
  kernels::Grid<MemorySpace> g("g", h.e.nx + 2, h.e.ny + 2, h.e.nz + 2);
  auto m = Kokkos::create_mirror_view(g);
  for (int k = 0; k < h.e.nz + 2; ++k)
    for (int j = 0; j < h.e.ny + 2; ++j)
      for (int i = 0; i < h.e.nx + 2; ++i) m(i, j, k) = h(i, j, k);
  Kokkos::deep_copy(g, m);
  return g;
}

inline HostGrid to_host(const kernels::Grid<MemorySpace>& g, const kernels::BlockExtent& e) {
  HostGrid h(e);
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g);
  for (int k = 0; k < e.nz + 2; ++k)
    for (int j = 0; j < e.ny + 2; ++j)
      for (int i = 0; i < e.nx + 2; ++i) h(i, j, k) = m(i, j, k);
  return h;
}

// Deterministic, non-trivial values in every cell including ghosts.
inline HostGrid sample_grid(const kernels::BlockExtent& e, int salt) {
  HostGrid h(e);
  for (std::size_t n = 0; n < h.v.size(); ++n)
    h.v[n] = 0.25 + static_cast<double>((n * 7919 + salt * 104729) % 1000) / 997.0;
  return h;
}

inline double serial_stencil_value(kernels::Stencil s, const HostGrid& in, int i, int j, int k) {
  using kernels::Stencil;
  switch (s) {
    case Stencil::TwoD5Pt:
      return (in(i, j - 1, k) + in(i - 1, j, k) + in(i, j, k) + in(i + 1, j, k) + in(i, j + 1, k)) * (1.0 / 5);
    case Stencil::ThreeD7Pt:
      return (in(i, j, k - 1) + in(i, j - 1, k) + in(i - 1, j, k) + in(i, j, k) + in(i + 1, j, k) + in(i, j + 1, k) +
              in(i, j, k + 1)) *
             (1.0 / 7);
    case Stencil::TwoD9Pt:
      return (in(i - 1, j - 1, k) + in(i, j - 1, k) + in(i + 1, j - 1, k) + in(i - 1, j, k) + in(i, j, k) +
              in(i + 1, j, k) + in(i - 1, j + 1, k) + in(i, j + 1, k) + in(i + 1, j + 1, k)) *
             (1.0 / 9);
    case Stencil::ThreeD27Pt: {
      // The kernel's order (box_sum_sweep.hpp): per (x, y), the sum over z; per x, the three of those
      // over y; then the three adjacent x columns.
      double column[3];
      for (int di = -1; di <= 1; ++di) {
        double z[3];
        for (int dj = -1; dj <= 1; ++dj)
          z[dj + 1] = in(i + di, j + dj, k - 1) + in(i + di, j + dj, k) + in(i + di, j + dj, k + 1);
        column[di + 1] = z[0] + z[1] + z[2];
      }
      return (column[0] + column[1] + column[2]) * (1.0 / 27);
    }
  }
  return 0.0;
}

}  // namespace amp::test
