// SPDX-License-Identifier: BSD-3-Clause
// Tag banks for size checks, exchange data and migration data (layout in message_tags.hpp).
#include <amp/comm/impl/message_tags.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace amp::comm {

TagLayout::TagLayout(int tag_ub) {
  if (tag_ub < 32767) throw std::runtime_error("MPI_TAG_UB " + std::to_string(tag_ub) + " is below MPI's 32767");
  const long long data_tags = static_cast<long long>(tag_ub) + 1 - kFirstDataTag;
  // Two banks (one per class) at the least; as wide as kWidestBank when the MPI has room.
  bank_width_ = static_cast<int>(std::min<long long>(kWidestBank, data_tags / 2));
  epochs_ = static_cast<int>(data_tags / bank_width_ / 2);
}

int TagLayout::size_check_tag(int phase) const {
  if (phase < 0 || phase >= kSizeCheckTags)
    throw std::runtime_error("exchange plan: at most " + std::to_string(kSizeCheckTags) + " phases have tags");
  return phase;
}

int TagLayout::data_tag(MessageClass message_class, int epoch, int phase, int num_phases, long long ordinal) const {
  const long long offset = ordinal * num_phases + phase;
  if (offset >= bank_width_) {
    throw std::runtime_error("too many messages per link for this MPI's MPI_TAG_UB (" + std::to_string(bank_width_) +
                             " tags per plan); use an aggregating strategy or smaller pieces");
  }
  const long long bank = 2LL * (epoch % epochs_) + static_cast<int>(message_class);
  return static_cast<int>(kFirstDataTag + bank * bank_width_ + offset);
}

}  // namespace amp::comm
