// SPDX-License-Identifier: BSD-3-Clause
// Counter-based hashing (splitmix64 finaliser): reproducible pseudo-random values from a global cell
// index, so initial data and checksums do not depend on the decomposition or the rank count.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace amp::kernels {

KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) with 53 random bits.
KOKKOS_INLINE_FUNCTION double unit_double(std::uint64_t x) {
  return static_cast<double>(mix64(x) >> 11) * (1.0 / 9007199254740992.0);
}

// The stream of (seed, variable) that unit_double(stream + global index) draws initial values from.
KOKKOS_INLINE_FUNCTION std::uint64_t random_stream(std::uint64_t seed, int variable) {
  return mix64(seed ^ mix64(static_cast<std::uint64_t>(variable) + 1));
}

// One cell's term of an order-independent field digest: a hash of (variable salt, global index, value bits).
KOKKOS_INLINE_FUNCTION std::uint64_t digest_salt(int variable) {
  return mix64(0xA5A5ull + static_cast<std::uint64_t>(variable));
}
KOKKOS_INLINE_FUNCTION std::uint64_t value_digest(std::uint64_t salt, std::uint64_t global_index, double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return mix64(mix64(salt ^ global_index) ^ bits);
}

}  // namespace amp::kernels
