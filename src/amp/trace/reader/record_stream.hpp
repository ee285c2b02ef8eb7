// SPDX-License-Identifier: BSD-3-Clause
// The one record stream of a traced run: every rank's call records merged in wall-clock order (ties:
// lower rank first), each handed out with what it means resolved once: the communicator and world
// ranks of every peer (CommRegistry), the message a Start starts and a Wait completes (per-rank
// request table, persistent requests included), and message bytes from the rank's datatype sizes.
// Consumers (stats, check, the OTF2 and the SimGrid export) read this instead of keeping their own
// copies of that bookkeeping. run() hands out all ranks merged; run_rank() one rank at a time, for a
// consumer that writes per-rank output, after learning every rank's communicators in a merged pass.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <amp/trace/reader/comm_registry.hpp>
#include <amp/trace/reader/record.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace {

// One point-to-point message as one side sees it: what a call starts, or what a completion finishes.
struct MessageEnd {
  bool is_send = false;
  bool blocking = false;                // Send, Recv, Sendrecv: complete when the call returns
  std::int32_t request = 0;             // the request that completes it (nonblocking and persistent)
  std::uint64_t operation = 0;          // nonblocking: 1, 2, ... per rank in start order, the same when it completes
  int comm = CommRegistry::kUndefined;  // registry communicator (0 = MPI_COMM_WORLD), or kUndefined/kOpaque
  std::int64_t comm_id = 0;             // the rank's own DUMPI id of it
  int peer = -1;                        // partner's world rank; kPeerNone (MPI_PROC_NULL), kPeerAny (wildcard),
                                        // kPeerUnknown (a communicator of unknown members)
  std::int64_t comm_peer = -1;          // partner's rank in the communicator as recorded (negative: MPI_ANY_SOURCE
                                        // or MPI_PROC_NULL), or as the status of a wildcard receive's completion says
  int tag = 0;                          // as recorded; -1 is MPI_ANY_TAG for a receive (until a status tells)
  std::int64_t bytes = -1;              // count x datatype size; -1 when the size is unknown
  std::int64_t received_bytes = -1;     // a receive completed with a status: the bytes it says arrived
  bool cancelled = false;               // completed with a status that says it was cancelled
  std::uint16_t function = 0;           // the call that started it (MPI_Start for a started persistent request)
  std::uint16_t origin = 0;             // the call that made it: function, or the *_init of a persistent request

  static constexpr int kPeerNone = -2;  // MPI_PROC_NULL: no message
  static constexpr int kPeerAny = -1;   // MPI_ANY_SOURCE not resolved by a status (yet)
  static constexpr int kPeerUnknown = -3;
};

// A collective call, with the world rank of its root where it has one.
struct CollectiveCall {
  std::uint16_t function = 0;
  int comm = CommRegistry::kUndefined;
  int comm_size = 0;
  int root_world = -1;
  std::int64_t bytes = -1;       // per-rank block (count x size of the call's own datatype), -1 unknown;
                                 // Alltoallv: the sum of the send counts
  std::int64_t recv_bytes = -1;  // Gather/Scatter/Allgather/Alltoall: the receive side's block;
                                 // Allgatherv/Alltoallv: the sum of the receive counts
};

struct ResolvedCall {
  int rank = 0;                     // world rank whose file holds the record
  std::uint64_t record_number = 0;  // 1-based position in that file
  const Record* record = nullptr;
  const TraceFile* file = nullptr;    // that file (its datatype sizes, footer, function addresses)
  std::vector<MessageEnd> started;    // messages this call starts (in argument order)
  std::vector<MessageEnd> completed;  // nonblocking messages this call completes (Wait*, Test* with flag)
  std::vector<MessageEnd> freed;      // active nonblocking messages Request_free lets go (no Wait will end them)
  std::vector<std::int32_t> unknown_requests;  // ids (started, completed, freed) no recorded call on the rank created
  std::vector<std::int64_t> undefined_comms;   // communicator ids it uses that no recorded call on the rank created
  std::unique_ptr<CollectiveCall> collective;
  int created_from = CommRegistry::kUndefined;  // Comm_dup, Comm_split, Comm_create, Cart_create: the registry
                                                // communicator it was made from (kUndefined/kOpaque: unknown)
};

class RecordStream {
 public:
  // Opens every rank's file of the set for streaming (one record per rank held at a time).
  explicit RecordStream(const TraceSet& set);
  // One file alone (already opened or parsed) as world rank `rank` of `world_size`.
  RecordStream(TraceFile file, int rank, int world_size);
  ~RecordStream();
  RecordStream(const RecordStream&) = delete;
  RecordStream& operator=(const RecordStream&) = delete;

  int world_size() const { return world_size_; }
  const std::vector<int>& ranks() const { return ranks_; }
  const CommRegistry& communicators() const { return registry_; }

  // Visits every record of every rank once, in merged order. Throws TraceFormatError on unreadable input.
  void run(const std::function<void(const ResolvedCall&)>& visit);

  // Instead of run(): visits the records of world rank `rank` (one with a file), in its own order, with
  // communicators as every rank's creation calls made them (learnt in one merged pass on the first
  // call). Returns the nonblocking operations the rank left open (started, never completed).
  std::uint64_t run_rank(int rank, const std::function<void(const ResolvedCall&)>& visit);
  // The file of world rank `rank` (one with a file).
  const TraceFile& file(int rank) const;

 private:
  struct Rank;
  struct Reading;
  // Hands out the records of `readings` merged by wall start time (ties: lower rank first).
  static void merge(std::vector<Reading>& readings, const std::function<void(Rank&, const Reading&)>& visit);
  void learn_communicators();
  void resolve(Rank& rank, const Record& record, ResolvedCall& call);
  void creation(Rank& rank, const Record& record);
  MessageEnd message(Rank& rank, bool is_send, std::int64_t count, std::int64_t datatype, std::int64_t peer,
                     std::int64_t tag, std::int64_t comm_id, std::uint16_t function);

  int world_size_ = 0;
  std::vector<int> ranks_;
  std::vector<std::unique_ptr<Rank>> files_;
  CommRegistry registry_;
  bool communicators_learnt_ = false;  // run_rank(): creation calls replay what the merged pass learnt
};

}  // namespace amp::trace
