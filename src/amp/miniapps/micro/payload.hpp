// SPDX-License-Identifier: BSD-3-Clause
// Payload patterns: every byte a benchmark moves depends on the sending rank, the message size and
// its position, so a lost, truncated, shifted or misdelivered message fails the check afterwards.
#pragma once

#include <cstddef>
#include <cstdint>

namespace amp::micro {

// Never zero, so a cleared receive buffer never passes.
inline unsigned char pattern_byte(int source_rank, std::uint64_t size, std::uint64_t index) {
  const std::uint64_t mixed = index * 131u + static_cast<std::uint64_t>(source_rank) * 977u + size * 7u;
  return static_cast<unsigned char>(1 + mixed % 251u);
}

void fill_pattern(unsigned char* data, std::uint64_t size, int source_rank);
bool holds_pattern(const unsigned char* data, std::uint64_t size, int source_rank);

}  // namespace amp::micro
