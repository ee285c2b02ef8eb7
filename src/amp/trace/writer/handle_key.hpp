// SPDX-License-Identifier: BSD-3-Clause
// Turns any MPI handle (an int in MPICH, a pointer in Open MPI) into a 64-bit map key,
// so the numbering code stays free of implementation-specific handle types.
#pragma once

#include <cstdint>
#include <cstring>

namespace amp::trace {

template <class Handle>
std::uint64_t handle_key(Handle handle) {
  static_assert(sizeof(Handle) <= sizeof(std::uint64_t), "MPI handle wider than 64 bits");
  std::uint64_t key = 0;
  std::memcpy(&key, &handle, sizeof(Handle));
  return key;
}

}  // namespace amp::trace
