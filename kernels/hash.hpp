// Counter-based hashing (splitmix64 finaliser): reproducible pseudo-random values from a global cell
// index, so initial data and checksums do not depend on the decomposition or the rank count.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

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

}  // namespace amp::kernels
