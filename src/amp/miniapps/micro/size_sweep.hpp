// SPDX-License-Identifier: BSD-3-Clause
// The message sizes a benchmark visits (powers of two from --min-size to --max-size) and how many
// iterations each gets: the full count while a repetition moves at most --volume bytes, fewer above.
#pragma once

#include <amp/miniapps/micro/benchmark.hpp>

#include <cstdint>
#include <vector>

namespace amp::micro {

struct SweepPoint {
  std::uint64_t bytes = 0;
  int iterations = 0;
  // The point's message tag (its index in the sweep): each size has tags of its own, so no channel
  // carries messages of two sizes, which trace replayers need (comm/impl/message_tags.hpp says why).
  int tag = 0;
};

std::vector<SweepPoint> size_sweep(const RunSettings& settings);

// Iterations for one message of `bytes` under the volume limit: at least 1, at most `iterations`.
int iterations_within_volume(std::uint64_t bytes, int iterations, std::uint64_t volume);

}  // namespace amp::micro
