// SPDX-License-Identifier: BSD-3-Clause
// The tags of every point-to-point message the comm layer sends. Each kind of message gets tags of its
// own, so that no channel (communicator, source, destination, tag) carries messages of different
// sizes: MPI keeps order on a channel, but trace replayers (SST-macro) may match a later, larger
// message to an earlier, smaller receive of the same channel.
//
//   tags [0, kSizeCheckTags)        start-up size checks, one tag per phase (every one 24 bytes)
//   tags [kSizeCheckTags, 2 * kSizeCheckTags)
//                                   a transport's start-up exchange (RMA window offsets), one tag per
//                                   phase (every one 16 bytes)
//   tags [kFirstDataTag, tag_ub]    data, in banks of bank_width() tags; one bank per (class, epoch):
//                                   bank = 2 * (epoch mod epochs_before_reuse()) + class
//   a data tag = first tag of its bank + ordinal * num_phases + phase
//   an rma notice tag = the data tag of ordinal 2 * group + kind: the rma transport sends no data
//                                   message, so its zero-byte notices take its plan's data tags, one
//                                   per (group, phase, kind of notice)
//
// An epoch is one generation of a plan whose message sizes may change (an AMR step's new mesh);
// migration traffic has a class of its own.
#pragma once

#include <amp/comm/message_class.hpp>

#include <mpi.h>

namespace amp::comm {

// The rma transport's zero-byte notices (transports/rma.cpp): a batch's puts have landed in the
// target's slots; the target's slots of a batch may be written again.
enum class RmaNotice { kLanded = 0, kSlotFree = 1 };

class TagLayout {
 public:
  static constexpr int kSizeCheckTags = 16;
  static constexpr int kFirstDataTag = 64;
  static constexpr int kWidestBank = 1 << 18;

  // tag_ub: the communicator's MPI_TAG_UB (at least 32767 by the standard).
  explicit TagLayout(int tag_ub);

  // Throws std::runtime_error when phase >= kSizeCheckTags.
  int size_check_tag(int phase) const;
  int transport_setup_tag(int phase) const { return kSizeCheckTags + size_check_tag(phase); }
  // Throws std::runtime_error naming the limit when ordinal * num_phases + phase does not fit a bank.
  int data_tag(MessageClass message_class, int epoch, int phase, int num_phases, long long ordinal) const;
  // The tag of one kind of rma notice about group `group`'s batch of `phase` (throws as data_tag does).
  int rma_notice_tag(MessageClass message_class, int epoch, int phase, int num_phases, int group,
                     RmaNotice kind) const {
    return data_tag(message_class, epoch, phase, num_phases, 2LL * group + static_cast<int>(kind));
  }

  int bank_width() const { return bank_width_; }
  // Epochs of one class that get distinct banks; epoch e and e + epochs_before_reuse() share one.
  int epochs_before_reuse() const { return epochs_; }

 private:
  int bank_width_ = 0;
  int epochs_ = 0;
};

}  // namespace amp::comm
