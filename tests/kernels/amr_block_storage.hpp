// SPDX-License-Identifier: BSD-3-Clause
// Host-side AMR block storage for the AMR kernel tests: blocks of (n+2)^3 doubles addressed by interior
// coordinates (-1 and n are the ghost layers), copied to and from a View in the test's memory space.
#pragma once

#include <amp/kernels/amr_block.hpp>
#include "../common/test_execution_space.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace amp::test {

struct HostBlocks {
  kernels::AmrBlockShape shape;
  int blocks;
  std::vector<double> v;
  HostBlocks(int n, int block_count, double fill = 0.0)
      : shape{n}, blocks(block_count), v(static_cast<std::size_t>(block_count * shape.storage()), fill) {}

  // Offset of cell (i, j, k) of storage slot `slot`, interior cells at 0..n-1 on each axis.
  std::int64_t at(int slot, int i, int j, int k) const {
    return slot * shape.storage() + (i + 1) * shape.stride(0) + (j + 1) * shape.stride(1) + (k + 1) * shape.stride(2);
  }
  double& operator()(int slot, int i, int j, int k) { return v[static_cast<std::size_t>(at(slot, i, j, k))]; }
  double operator()(int slot, int i, int j, int k) const { return v[static_cast<std::size_t>(at(slot, i, j, k))]; }
  bool is_interior(int i, int j, int k) const {
    const int n = shape.n;
    return i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n;
  }
};

inline kernels::AmrValuesIn<MemorySpace> to_device(const std::vector<double>& host) {
  kernels::AmrValuesIn<MemorySpace> device("amp::test::storage", host.size());
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(device, mirror);
  return device;
}

inline std::vector<double> to_host(const kernels::AmrValuesIn<MemorySpace>& device) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  return std::vector<double>(mirror.data(), mirror.data() + mirror.extent(0));
}

// A block at `level` and `position` with the given faces (FaceNeighbour, order -x,+x,-y,+y,-z,+z).
inline kernels::AmrBlock amr_block(int level, kernels::FaceNeighbour all_faces, std::int64_t x = 0, std::int64_t y = 0,
                                   std::int64_t z = 0) {
  kernels::AmrBlock b;
  b.level = level;
  for (int& f : b.face) f = static_cast<int>(all_faces);
  b.position[0] = x;
  b.position[1] = y;
  b.position[2] = z;
  return b;
}

}  // namespace amp::test
