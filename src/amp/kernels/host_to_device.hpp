// SPDX-License-Identifier: BSD-3-Clause
// A host vector copied into a new device view (through a host mirror), for tables built on the host
// once and read by kernels: face tables, piece copies, AMR block lists.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace amp::kernels {

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space, class T>
Kokkos::View<const T*, MemorySpace> copy_to(const std::vector<T>& host, const char* label) {
  Kokkos::View<T*, MemorySpace> device(std::string(label), host.size());
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(device, mirror);
  return device;
}

}  // namespace amp::kernels
