// SPDX-License-Identifier: BSD-3-Clause
// MPI's matching rule for point-to-point messages, per receiving rank and communicator: an
// arriving message takes the first posted receive it matches (source and tag, or wildcards), a
// posted receive takes the first unexpected message it matches, both in the order they happened.
// Only what is in flight is held: matched pairs leave the queues at once.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>

namespace amp::trace {

inline constexpr int kAnySource = -1;  // DUMPI's MPI_ANY_SOURCE
inline constexpr int kAnyTag = -1;     // DUMPI's MPI_ANY_TAG

// Where one end of a message was recorded.
struct CallSite {
  int rank = 0;              // world rank
  std::uint64_t record = 0;  // 1-based record number in that rank's file
  std::uint64_t offset = 0;
  std::uint16_t function = 0;
};

struct SentMessage {
  CallSite site;
  int comm = 0;     // registry communicator
  int comm_id = 0;  // the sender's DUMPI id for it (for messages)
  int source = 0;   // sender's rank in comm
  int dest = 0;     // receiver's rank in comm
  int dest_world = 0;
  int tag = 0;
  std::int64_t bytes = -1;   // -1: datatype size unknown
  std::uint64_t serial = 0;  // unique per message
};

struct PostedReceive {
  CallSite site;
  int comm = 0;
  int comm_id = 0;
  int source = kAnySource;  // rank in comm, or kAnySource
  int tag = kAnyTag;
  std::int64_t capacity = -1;
  std::uint64_t serial = 0;  // unique per posted receive (set by the matcher)
};

class MessageMatcher {
 public:
  // A message arrives at dest_world: the receive it matched, if one was posted.
  std::optional<PostedReceive> send(const SentMessage& message);
  // A receive is posted on rank: the message it matched, if one was waiting. Fills receive.serial.
  std::optional<SentMessage> post(int rank, PostedReceive& receive);
  // Withdraws a still-unmatched receive (a receive from MPI_PROC_NULL); false if it has matched.
  bool withdraw(int rank, int comm, std::uint64_t serial);
  std::uint64_t in_flight() const { return in_flight_; }

  // Everything left unmatched, receiver by receiver (rank, then communicator).
  template <class OnSend, class OnReceive>
  void for_each_unmatched(OnSend on_send, OnReceive on_receive) const {
    for (const auto& [where, queues] : queues_) {
      for (const SentMessage& m : queues.unexpected) on_send(m);
      for (const PostedReceive& r : queues.posted) on_receive(r);
    }
  }

 private:
  struct Queues {
    std::deque<SentMessage> unexpected;
    std::deque<PostedReceive> posted;
  };
  std::map<std::pair<int, int>, Queues> queues_;  // (receiving world rank, communicator)
  std::uint64_t next_serial_ = 1;
  std::uint64_t in_flight_ = 0;
};

}  // namespace amp::trace
