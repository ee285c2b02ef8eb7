// SPDX-License-Identifier: BSD-3-Clause
// The explicit Eulerian update of AMR blocks, batched over all blocks of a rank: first-order upwind
// advection plus diffusion in flux form, so what leaves one cell enters its neighbour (conservative).
#pragma once

#include <amp/kernels/amr_block.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

struct EulerianParams {
  double velocity[3] = {0.3, 0.2, 0.1};  // in level-0 cell widths per unit time
  double diffusion = 0.05;
};

// Width of a level: level-0 cells are 1 wide.
KOKKOS_INLINE_FUNCTION double level_width(int level) { return 1.0 / static_cast<double>(std::int64_t{1} << level); }

// Largest stable step for cells of width h (first-order upwind + diffusion, worst coarse-fine distances).
inline double stable_time_step(const EulerianParams& p, double h, double cfl) {
  const double speed = (p.velocity[0] < 0 ? -p.velocity[0] : p.velocity[0]) +
                       (p.velocity[1] < 0 ? -p.velocity[1] : p.velocity[1]) +
                       (p.velocity[2] < 0 ? -p.velocity[2] : p.velocity[2]);
  return cfl / (speed / h + 8.0 * p.diffusion / (h * h));
}

// next = current - dt/h * sum of face fluxes, over every interior cell of every block; ghosts hold the
// neighbours' values (restricted or prolonged at coarse-fine faces, zero at the domain boundary).
// Distances between cell centres across a face: h (same level or boundary), 1.5h seen from the fine
// side, 0.75h from the coarse side (its ghost is the average of four fine cells), which makes the
// coarse flux equal the sum of the four fine fluxes. Returns what left through the domain boundary.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double eulerian_update(const ConstAmrValuesIn<typename ExecutionSpace::memory_space>& current,
                       const AmrValuesIn<typename ExecutionSpace::memory_space>& next,
                       const Kokkos::View<const AmrBlock*, typename ExecutionSpace::memory_space>& blocks,
                       AmrBlockShape shape, EulerianParams p, double dt) {
  const int n = shape.n;
  const std::int64_t cells = shape.cells(), storage = shape.storage();
  const std::int64_t sx = shape.stride(0), sy = shape.stride(1), sz = shape.stride(2);
  double outflow = 0.0;
  Kokkos::parallel_reduce(
      "amp::eulerian_update",
      Kokkos::RangePolicy<ExecutionSpace, std::int64_t>(0, static_cast<std::int64_t>(blocks.extent(0)) * cells),
      KOKKOS_LAMBDA(const std::int64_t c, double& out) {
        const std::int64_t b = c / cells, r = c % cells;
        const int ijk[3] = {static_cast<int>(r % n), static_cast<int>((r / n) % n),
                            static_cast<int>(r / (std::int64_t{n} * n))};
        const AmrBlock& block = blocks(b);
        const double h = level_width(block.level);
        const std::int64_t at = b * storage + (ijk[0] + 1) * sx + (ijk[1] + 1) * sy + (ijk[2] + 1) * sz;
        const double u = current(at);
        const std::int64_t st[3] = {sx, sy, sz};
        double leaving = 0.0;
        for (int axis = 0; axis < 3; ++axis) {
          for (int side = 0; side < 2; ++side) {
            const double sign = side == 0 ? -1.0 : 1.0;
            const double g = current(side == 0 ? at - st[axis] : at + st[axis]);
            const bool on_face = side == 0 ? ijk[axis] == 0 : ijk[axis] == n - 1;
            const int kind = on_face ? block.face[2 * axis + side] : static_cast<int>(FaceNeighbour::SameLevel);
            const double distance = kind == static_cast<int>(FaceNeighbour::Coarser) ? 1.5 * h
                                    : kind == static_cast<int>(FaceNeighbour::Finer) ? 0.75 * h
                                                                                     : h;
            const double vn = sign * p.velocity[axis];
            const double flux = (vn > 0 ? vn * u : vn * g) - p.diffusion * (g - u) / distance;
            leaving += flux;
            if (kind == static_cast<int>(FaceNeighbour::DomainBoundary)) out += dt * h * h * flux;
          }
        }
        next(at) = u - dt / h * leaving;
      },
      outflow);
  return outflow;
}

}  // namespace amp::kernels
