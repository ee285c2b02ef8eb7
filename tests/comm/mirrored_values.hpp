// SPDX-License-Identifier: BSD-3-Clause
// One variable's storage for the comm tests, as a device build needs it: in the comm layer's memory
// space, written and read on the host only through a separate host copy (Kokkos::create_mirror, which
// is a copy even on a host build, so a test that forgets a copy fails here too).
#pragma once

#include <amp/comm/memory_space.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace amp::test {

struct MirroredValues {
  Kokkos::View<double*, comm::MemorySpace> device;
  Kokkos::View<double*, comm::MemorySpace>::HostMirror host;

  MirroredValues(std::int64_t size, double fill)
      : device("amp::test::values", size), host(Kokkos::create_mirror(device)) {
    Kokkos::deep_copy(host, fill);
    Kokkos::deep_copy(device, host);
  }
  // `count` of them, each its own allocation (copies of one would share it).
  static std::vector<MirroredValues> several(int count, std::int64_t size, double fill) {
    std::vector<MirroredValues> all;
    for (int i = 0; i < count; ++i) all.emplace_back(size, fill);
    return all;
  }
  double& operator[](std::int64_t e) const { return host(e); }
  // The host copy's values, in the memory space: what a strategy is given.
  const Kokkos::View<double*, comm::MemorySpace>& written() const {
    Kokkos::deep_copy(device, host);
    return device;
  }
  // The memory space's values (ghosts received), on the host copy.
  const MirroredValues& read() const {
    Kokkos::deep_copy(host, device);
    return *this;
  }
};

}  // namespace amp::test
