// SPDX-License-Identifier: BSD-3-Clause
// Filling and checking payload patterns.
#include <amp/miniapps/micro/payload.hpp>

namespace amp::micro {

void fill_pattern(unsigned char* data, std::uint64_t size, int source_rank) {
  for (std::uint64_t i = 0; i < size; ++i) data[i] = pattern_byte(source_rank, size, i);
}

bool holds_pattern(const unsigned char* data, std::uint64_t size, int source_rank) {
  for (std::uint64_t i = 0; i < size; ++i) {
    if (data[i] != pattern_byte(source_rank, size, i)) return false;
  }
  return true;
}

}  // namespace amp::micro
