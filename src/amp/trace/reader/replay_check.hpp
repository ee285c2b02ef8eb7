// SPDX-License-Identifier: BSD-3-Clause
// `amp-trace check`: replays a traced run's point-to-point traffic across all ranks the way a trace
// replayer (SST-macro's parsedumpi) must, and reports what would make the replay abort or lie:
// receives smaller than their message, channels whose message size changes, unmatched sends and
// receives, waits on requests the rank never created, undefined communicators and datatypes, and
// calls the replayer does not implement.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace {

enum class FindingKind : std::uint8_t {
  kSmallReceive,
  kChannelSizeChange,
  kUnmatchedSend,
  kUnmatchedReceive,
  kUnknownRequest,
  kUndefinedCommunicator,
  kUndefinedDatatype,
  kUnreplayableCall,
};
inline constexpr std::size_t kFindingKinds = 8;

// Stable names used in JSON and the summary: small_receive, channel_size_change, unmatched_send,
// unmatched_receive, unknown_request, undefined_communicator, undefined_datatype, unreplayable_call.
const char* finding_kind_name(FindingKind kind);

struct ReplayFinding {
  FindingKind kind;
  int rank = 0;              // MPI_COMM_WORLD rank whose file holds the record
  std::uint64_t record = 0;  // 1-based position of the record in that rank's file
  std::uint64_t offset = 0;  // byte offset of the record
  std::string call;          // e.g. "MPI_Recv"
  std::string message;       // the explanation, without the "rank R record N CALL:" prefix
};

struct ReplayCheckOptions {
  std::size_t keep_per_kind = 20;  // findings kept (in discovery order) per kind; all are counted
  // channel_size_change: true counts every change of message size on a channel (the rule AMP's
  // proxies keep: one size per channel); false only a change while the earlier message is still in
  // flight, the case that certainly breaks a replayer that does not keep order within a channel.
  // Of each channel's changes the first is kept, and its first while in flight; the rest are counted.
  bool every_size_change = true;
};

struct ReplayCheckReport {
  int ranks = 0;
  std::uint64_t records = 0;
  std::uint64_t messages = 0;        // point-to-point messages sent (PROC_NULL excluded)
  std::uint64_t matched = 0;         // messages matched to a receive
  std::uint64_t peak_in_flight = 0;  // most unmatched sends + posted receives held at once
  // The first keep_per_kind findings of each kind found, sorted by (kind, rank, record).
  std::vector<ReplayFinding> findings;
  std::array<std::uint64_t, kFindingKinds> counts{};  // all findings, per kind
  std::uint64_t total() const {
    std::uint64_t n = 0;
    for (auto c : counts) n += c;
    return n;
  }
};

// Streams every rank's file of the set (bounded memory: one record per rank plus the messages in
// flight). Throws TraceFormatError on unreadable input.
ReplayCheckReport check_replay(const TraceSet& set, const ReplayCheckOptions& options = {});

}  // namespace amp::trace
