// SPDX-License-Identifier: BSD-3-Clause
// Hilbert keys by Skilling's "AxesToTranspose" (undo excess work, Gray encode) followed by bit
// interleaving of the transposed form; Morton keys by plain interleaving (x least significant).
#include <amp/miniapps/sage/space_filling_curve.hpp>

namespace amp::sage {

namespace {

// Interleaves bit b of a[0], a[1], a[2], most significant b first, a[0] highest within each triple.
std::uint64_t interleave(const std::uint32_t a[3], int bits) {
  std::uint64_t key = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < 3; ++i) key = (key << 1) | ((a[i] >> b) & 1u);
  return key;
}

}  // namespace

std::uint64_t hilbert_key(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits) {
  std::uint32_t X[3] = {x, y, z};
  const std::uint32_t top = 1u << (bits - 1);
  for (std::uint32_t q = top; q > 1; q >>= 1) {
    const std::uint32_t p = q - 1;
    for (int i = 0; i < 3; ++i) {
      if (X[i] & q) {
        X[0] ^= p;  // invert low bits of x
      } else {      // exchange low bits of x and X[i]
        const std::uint32_t t = (X[0] ^ X[i]) & p;
        X[0] ^= t;
        X[i] ^= t;
      }
    }
  }
  for (int i = 1; i < 3; ++i) X[i] ^= X[i - 1];
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1)
    if (X[2] & q) t ^= q - 1;
  for (int i = 0; i < 3; ++i) X[i] ^= t;
  return interleave(X, bits);
}

std::uint64_t morton_key(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits) {
  const std::uint32_t a[3] = {z, y, x};  // x in the least significant position of each triple
  return interleave(a, bits);
}

int curve_bits(const std::array<std::int64_t, 3>& cells) {
  std::int64_t largest = 1;
  for (std::int64_t n : cells) largest = n > largest ? n : largest;
  int bits = 1;
  while ((std::int64_t{1} << bits) < largest) ++bits;
  return bits;
}

}  // namespace amp::sage
