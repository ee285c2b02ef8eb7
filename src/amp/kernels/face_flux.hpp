// SPDX-License-Identifier: BSD-3-Clause
// The SAGE-like face-flux update over an unstructured cell list: per face a conservative flux from
// its two cells (upwind advection + diffusion), then per cell the sum of its six face fluxes (indirect addressing).
#pragma once

#include <amp/kernels/host_to_device.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace amp::kernels {

// Faces as (low cell, high cell, axis) in local cell indices, -1 for the outside of the global box
// (value zero there), and each owned cell's six faces in the order -x,+x,-y,+y,-z,+z.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
struct FaceTable {
  Kokkos::View<const std::int64_t*, MemorySpace> low, high;
  Kokkos::View<const int*, MemorySpace> axis;
  Kokkos::View<const std::int64_t*, MemorySpace> cell_faces;  // owned cells x 6
  std::int64_t faces() const { return static_cast<std::int64_t>(axis.extent(0)); }
  std::int64_t cells() const { return static_cast<std::int64_t>(cell_faces.extent(0) / 6); }
};

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
FaceTable<MemorySpace> make_face_table(const std::vector<std::int64_t>& low, const std::vector<std::int64_t>& high,
                                       const std::vector<int>& axis, const std::vector<std::int64_t>& cell_faces) {
  return {copy_to<MemorySpace>(low, "amp::face_low"), copy_to<MemorySpace>(high, "amp::face_high"),
          copy_to<MemorySpace>(axis, "amp::face_axis"), copy_to<MemorySpace>(cell_faces, "amp::cell_faces")};
}

// One variable's transport: diffusion coefficient and velocity; explicit and positivity-preserving
// while 6 * diffusion + |u| + |v| + |w| <= 1.
struct Transport {
  double diffusion = 0.1;
  double velocity[3] = {0, 0, 0};
};

// flux[f] = what moves from the low to the high cell of face f in one step. The flux depends only on
// the two cell values, so every rank that computes a face gets the same bits. Returns what left
// through the global boundary (inflow counts negative).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double compute_face_fluxes(const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& q,
                           const FaceTable<typename ExecutionSpace::memory_space>& table, const Transport& t,
                           const Kokkos::View<double*, typename ExecutionSpace::memory_space>& flux) {
  double outflow = 0.0;
  const auto low = table.low, high = table.high;
  const auto axis = table.axis;
  Kokkos::parallel_reduce(
      "amp::face_fluxes", Kokkos::RangePolicy<ExecutionSpace>(0, table.faces()),
      KOKKOS_LAMBDA(std::int64_t f, double& out) {
        const std::int64_t l = low(f), h = high(f);
        const double ql = l >= 0 ? q(l) : 0.0;
        const double qh = h >= 0 ? q(h) : 0.0;
        const double u = t.velocity[axis(f)];
        const double F = (u > 0 ? u * ql : u * qh) + t.diffusion * (ql - qh);
        flux(f) = F;
        if (h < 0) out += F;
        if (l < 0) out -= F;
      },
      outflow);
  return outflow;
}

// next(c) = q(c) + flux in through the low faces - flux out through the high faces, summed in the fixed
// face order -x,+x,-y,+y,-z,+z (so any decomposition gives the same bits). Returns the sum over owned cells.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double apply_face_fluxes(const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& q,
                         const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& flux,
                         const FaceTable<typename ExecutionSpace::memory_space>& table,
                         const Kokkos::View<double*, typename ExecutionSpace::memory_space>& next) {
  double sum = 0.0;
  const auto cell_faces = table.cell_faces;
  Kokkos::parallel_reduce(
      "amp::apply_face_fluxes", Kokkos::RangePolicy<ExecutionSpace>(0, table.cells()),
      KOKKOS_LAMBDA(std::int64_t c, double& s) {
        double value = q(c);
        for (int k = 0; k < 6; ++k) {
          const double F = flux(cell_faces(6 * c + k));
          value = k % 2 == 0 ? value + F : value - F;
        }
        next(c) = value;
        s += value;
      },
      sum);
  return sum;
}

}  // namespace amp::kernels
