// SPDX-License-Identifier: BSD-3-Clause
// Where the event mapping puts one location's OTF2 events (the archive writer, or a test's
// recorder): times are nanoseconds on the trace's wall clock, peers are communicator ranks.
#pragma once

#include <cstdint>

#include <amp/trace/otf2/collective_bytes.hpp>
#include <amp/trace/otf2/communicator_table.hpp>

namespace amp::trace::otf2 {

using RegionIndex = std::uint32_t;

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void enter(std::uint64_t time, RegionIndex region) = 0;
  virtual void leave(std::uint64_t time, RegionIndex region) = 0;
  virtual void send(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes) = 0;
  virtual void isend(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes,
                     std::uint64_t request) = 0;
  virtual void isend_complete(std::uint64_t time, std::uint64_t request) = 0;
  virtual void irecv_request(std::uint64_t time, std::uint64_t request) = 0;
  virtual void recv(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes) = 0;
  virtual void irecv(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag, std::uint64_t bytes,
                     std::uint64_t request) = 0;
  virtual void request_cancelled(std::uint64_t time, std::uint64_t request) = 0;
  virtual void collective_begin(std::uint64_t time) = 0;
  virtual void collective_end(std::uint64_t time, const CollectiveCall& call, CommIndex comm) = 0;
};

}  // namespace amp::trace::otf2
