// SPDX-License-Identifier: BSD-3-Clause
// Picks the remote rank of each random update (SST paper's hot-spot GUP/s): uniformly among the
// other ranks, except that the victim rank is `weight` times as likely as any other (1 = uniform).
#pragma once

#include <cstdint>
#include <vector>

namespace amp::micro {

class HotspotTargetPicker {
 public:
  // A rank never picks itself unless it runs alone.
  HotspotTargetPicker(int rank, int ranks, int victim, int weight);

  // `random` is a uniformly distributed 64-bit value.
  int pick(std::uint64_t random) const {
    const std::uint64_t ticket = random % total_weight_;
    if (victim_is_candidate_ && ticket < victim_weight_) return candidates_[0];
    return candidates_[victim_is_candidate_ ? ticket - victim_weight_ + 1 : ticket];
  }

  // Probability that pick() returns `rank`.
  double probability_of(int rank) const;

 private:
  std::vector<int> candidates_;  // the victim first when it is one
  bool victim_is_candidate_ = false;
  std::uint64_t victim_weight_ = 1;
  std::uint64_t total_weight_ = 1;
};

}  // namespace amp::micro
