// Outflow accounting for verification: the part of each boundary cell's value that a Jacobi stencil
// pushes into the zero ghosts of the global domain edge, so sum(interior) + outflow is conserved.
#pragma once

#include "grid.hpp"
#include "stencil.hpp"

namespace amp::kernels {

namespace detail {

// Number of stencil points of cell (i,j,k) that fall outside the global domain.
template <Stencil S>
KOKKOS_INLINE_FUNCTION int points_outside(int i, int j, int k, const BlockExtent& e, const GlobalSides& g) {
  const int out_x = (i == 1 && g.low[0]) + (i == e.nx && g.high[0]);
  const int out_y = (j == 1 && g.low[1]) + (j == e.ny && g.high[1]);
  const int out_z = (k == 1 && g.low[2]) + (k == e.nz && g.high[2]);
  if constexpr (S == Stencil::TwoD5Pt) return out_x + out_y;
  if constexpr (S == Stencil::ThreeD7Pt) return out_x + out_y + out_z;
  if constexpr (S == Stencil::TwoD9Pt) return 9 - (3 - out_x) * (3 - out_y);
  return 27 - (3 - out_x) * (3 - out_y) * (3 - out_z);
}

// The cells within one layer of the block's faces, as up to six disjoint boxes.
struct Shell {
  int lo[6][3], hi[6][3];  // half-open boxes
  std::int64_t begin[7] = {0, 0, 0, 0, 0, 0, 0};
  int boxes = 0;
  void add(int i0, int i1, int j0, int j1, int k0, int k1) {
    if (i1 <= i0 || j1 <= j0 || k1 <= k0) return;
    lo[boxes][0] = i0; hi[boxes][0] = i1;
    lo[boxes][1] = j0; hi[boxes][1] = j1;
    lo[boxes][2] = k0; hi[boxes][2] = k1;
    begin[boxes + 1] = begin[boxes] + std::int64_t{i1 - i0} * (j1 - j0) * (k1 - k0);
    ++boxes;
  }
  explicit Shell(const BlockExtent& e) {
    const int nx = e.nx, ny = e.ny, nz = e.nz;
    add(1, 2, 1, ny + 1, 1, nz + 1);                        // i = 1
    if (nx > 1) add(nx, nx + 1, 1, ny + 1, 1, nz + 1);      // i = nx
    add(2, nx, 1, 2, 1, nz + 1);                            // j = 1
    if (ny > 1) add(2, nx, ny, ny + 1, 1, nz + 1);          // j = ny
    add(2, nx, 2, ny, 1, 2);                                // k = 1
    if (nz > 1) add(2, nx, 2, ny, nz, nz + 1);              // k = nz
  }
  std::int64_t size() const { return begin[boxes]; }
  KOKKOS_INLINE_FUNCTION void cell(std::int64_t n, int& i, int& j, int& k) const {
    int b = 0;
    while (n >= begin[b + 1]) ++b;
    n -= begin[b];
    const std::int64_t wi = hi[b][0] - lo[b][0], wj = hi[b][1] - lo[b][1];
    i = lo[b][0] + static_cast<int>(n % wi);
    j = lo[b][1] + static_cast<int>((n / wi) % wj);
    k = lo[b][2] + static_cast<int>(n / (wi * wj));
  }
};

template <Stencil S, class MemorySpace>
struct OutflowSum {
  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Shell shell;
  BlockExtent extent;
  GlobalSides sides;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t n, double& sum) const {
    int i, j, k;
    shell.cell(n, i, j, k);
    const int outside = points_outside<S>(i, j, k, extent, sides);
    if (outside > 0) sum += in(i, j, k) * outside / static_cast<double>(stencil_points(S));
  }
};

}  // namespace detail

// What one application of the stencil to `in` loses through the global boundary.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double stencil_outflow(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in, const BlockExtent& e,
                       const GlobalSides& sides) {
  if (!sides.any()) return 0.0;
  using M = typename ExecutionSpace::memory_space;
  const detail::Shell shell(e);
  const Kokkos::RangePolicy<ExecutionSpace> policy(0, shell.size());
  double sum = 0.0;
  switch (stencil) {
    case Stencil::TwoD5Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::TwoD5Pt, M>{in, shell, e, sides}, sum);
      break;
    case Stencil::TwoD9Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::TwoD9Pt, M>{in, shell, e, sides}, sum);
      break;
    case Stencil::ThreeD7Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::ThreeD7Pt, M>{in, shell, e, sides}, sum);
      break;
    case Stencil::ThreeD27Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::ThreeD27Pt, M>{in, shell, e, sides},
                              sum);
      break;
  }
  return sum;
}

}  // namespace amp::kernels
