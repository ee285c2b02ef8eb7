// SPDX-License-Identifier: BSD-3-Clause
// Weighted choice of the remote rank for GUPS updates.
#include <amp/miniapps/micro/hotspot_target_picker.hpp>

#include <algorithm>

namespace amp::micro {

HotspotTargetPicker::HotspotTargetPicker(int rank, int ranks, int victim, int weight)
    : victim_weight_(static_cast<std::uint64_t>(weight)) {
  victim_is_candidate_ = ranks > 1 && victim != rank;
  if (victim_is_candidate_) candidates_.push_back(victim);
  for (int other = 0; other < ranks; ++other) {
    if (other != rank && other != victim) candidates_.push_back(other);
  }
  if (ranks == 1) candidates_ = {rank};
  const auto others = static_cast<std::uint64_t>(candidates_.size() - (victim_is_candidate_ ? 1 : 0));
  total_weight_ = others + (victim_is_candidate_ ? victim_weight_ : 0);
}

double HotspotTargetPicker::probability_of(int rank) const {
  const auto found = std::find(candidates_.begin(), candidates_.end(), rank);
  if (found == candidates_.end()) return 0.0;
  const bool is_victim = victim_is_candidate_ && found == candidates_.begin();
  return static_cast<double>(is_victim ? victim_weight_ : 1) / static_cast<double>(total_weight_);
}

}  // namespace amp::micro
