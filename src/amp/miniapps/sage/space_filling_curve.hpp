// SPDX-License-Identifier: BSD-3-Clause
// Keys of 3-D cells along a space-filling curve (Hilbert, after Skilling 2004, or Morton / Z-order):
// cells sorted by key are the order amp-sage stores and partitions them in.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace amp::sage {

// Key of cell (x, y, z) on the curve through the 2^bits cube (bits <= 21); neighbouring keys in a
// full cube are face neighbours for Hilbert, not always for Morton.
std::uint64_t hilbert_key(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits);
std::uint64_t morton_key(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits);

// Bits of the smallest power-of-two cube holding every axis of `cells` (at least 1).
int curve_bits(const std::array<std::int64_t, 3>& cells);

}  // namespace amp::sage
