// SPDX-License-Identifier: BSD-3-Clause
// What an OTF2 MpiCollectiveEnd says about one recorded collective call: the operation, its root
// and the bytes this rank sent and received, counted as Score-P counts them (without MPI_IN_PLACE,
// which DUMPI does not record).
#pragma once

#include <otf2/OTF2_Events.h>

#include <cstdint>
#include <optional>

#include <amp/trace/reader/record.hpp>
#include <amp/trace/reader/record_stream.hpp>

namespace amp::trace::otf2 {

struct CollectiveCall {
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
  std::optional<std::int64_t> root;  // communicator rank of the root, for rooted operations
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
};

// The collective a record stands for, or nothing when the record is not a collective data call.
// `resolved` is what the RecordStream made of it (its blocks' bytes; unknown sizes count 0);
// comm_size and my_rank are this rank's view of the record's communicator.
std::optional<CollectiveCall> collective_call(const Record& record, const amp::trace::CollectiveCall& resolved,
                                              std::uint64_t comm_size, std::int64_t my_rank);

}  // namespace amp::trace::otf2
