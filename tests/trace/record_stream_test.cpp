// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the one RecordStream on hand-made traces: request ids that sst-dumpi records shared
// and recycled complete oldest first, persistent requests start until freed, Request_free lets an
// active operation go, unknown means never created; rank-at-a-time reading sees the communicators the
// merged reading sees, ids reused after Comm_free included.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dumpi_trace_builder.hpp"
#include <amp/trace/reader/record_stream.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace {
namespace {

namespace fs = std::filesystem;
using test::BuiltStatus;
using test::ExpectedBytes;
using test::RankTrace;

constexpr std::uint16_t kInt = 9, kDouble = 14, kWorld = dumpi_comm::kWorld;

// Writes the ranks' files (each ended by MPI_Finalize) under the test's own directory.
TraceSet built(std::vector<RankTrace> ranks) {
  for (auto& rank : ranks) rank.at(100000).finalize();
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(AMP_RECORD_STREAM_TEST_DIR) / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return locate_trace(test::write_trace(dir.string(), "built", ranks));
}

std::vector<RankTrace> ranks(int n) {
  std::vector<RankTrace> r(static_cast<std::size_t>(n));
  for (auto& rank : r) rank.at(10).init();
  return r;
}

// What each call of the run made of its requests, in merged order.
struct Seen {
  std::uint16_t function;
  std::vector<MessageEnd> started, completed, freed;
  std::vector<std::int32_t> unknown;
};

std::vector<Seen> seen(const TraceSet& set) {
  std::vector<Seen> out;
  RecordStream stream(set);
  stream.run([&](const ResolvedCall& c) {
    out.push_back({c.record->function, c.started, c.completed, c.freed, c.unknown_requests});
  });
  return out;
}

RankTrace& request_free(RankTrace& t, std::int32_t request) {
  return t.call(kRequestFree, ExpectedBytes().i32(request));
}

TEST(RecordStream, SharedAndRecycledRequestIdsCompleteOldestFirst) {
  auto r = ranks(3);
  // MPICH shares one handle among eager sends, so sst-dumpi records the same id twice; then recycles it.
  r[0].at(100).isend(1, kInt, 1, 0, 7).isend(2, kInt, 2, 0, 7).wait(7).wait(7).wait(7);
  r[0].isend(3, kInt, 1, 0, 7).wait(7);
  const auto calls = seen(built(r));
  std::vector<std::pair<int, std::uint64_t>> completed;  // (peer, operation)
  for (const Seen& c : calls) {
    EXPECT_TRUE(c.unknown.empty()) << "function " << c.function;  // 7 was created: never unknown
    for (const MessageEnd& m : c.completed) completed.emplace_back(m.peer, m.operation);
  }
  EXPECT_EQ(completed, (std::vector<std::pair<int, std::uint64_t>>{{1, 1}, {2, 2}, {1, 3}}));
}

TEST(RecordStream, PersistentRequestsStartUntilFreedAndFreeingLetsAnIrecvGo) {
  auto r = ranks(2);
  r[0].at(100).call(kRecvInit, ExpectedBytes().i32(2).u16(kDouble).i32(1).i32(5).u16(kWorld).i32(4));
  for (int round = 0; round < 3; ++round) r[0].start(4).wait(4, BuiltStatus{16, 1, 5});
  request_free(r[0], 4);
  r[0].start(4);  // after MPI_Request_free: starts nothing
  r[0].irecv(1, kInt, 1, 6, 5);
  request_free(r[0], 5);
  r[0].wait(5);  // let go: nothing left to complete
  r[0].wait(9).start(8);
  request_free(r[0], 6);
  const auto calls = seen(built(r));
  int starts = 0, completions = 0;
  std::vector<MessageEnd> freed;
  std::vector<std::int32_t> unknown;
  for (const Seen& c : calls) {
    for (const MessageEnd& m : c.started) {
      if (m.function != kStart) continue;
      ++starts;
      EXPECT_EQ(m.origin, kRecvInit);
      EXPECT_EQ(m.bytes, 16);
    }
    for (const MessageEnd& m : c.completed) {
      ++completions;
      EXPECT_EQ(m.peer, 1);
      EXPECT_EQ(m.received_bytes, 16);
    }
    freed.insert(freed.end(), c.freed.begin(), c.freed.end());
    unknown.insert(unknown.end(), c.unknown.begin(), c.unknown.end());
  }
  EXPECT_EQ(starts, 3);
  EXPECT_EQ(completions, 3);
  ASSERT_EQ(freed.size(), 1u);  // the Irecv, not the persistent request
  EXPECT_FALSE(freed[0].is_send);
  EXPECT_EQ(freed[0].tag, 6);
  EXPECT_EQ(unknown, (std::vector<std::int32_t>{9, 8, 6}));  // ids no call made
}

TEST(RecordStream, RankAtATimeSeesTheCommunicatorsTheMergedReadingSees) {
  auto r = ranks(2);
  for (int rank = 0; rank < 2; ++rank) {
    // id 4: a dup of MPI_COMM_WORLD, freed, then reused for a split with the ranks reversed.
    r[rank].at(100).comm_dup(kWorld, 4);
    r[rank].at(200).send(1, kInt, 1 - rank, 1, 4);
    r[rank].at(300).call(kCommFree, ExpectedBytes().u16(4));
    r[rank].at(400).comm_split(kWorld, 0, -rank, 4);
    r[rank].at(500).send(1, kInt, 0, 2, 4);
  }
  const TraceSet set = built(r);
  // (rank, tag, peer's world rank) of every send, merged and rank at a time.
  using Send = std::tuple<int, int, int>;
  std::vector<Send> merged, one_by_one;
  RecordStream whole(set);
  whole.run([&](const ResolvedCall& c) {
    for (const MessageEnd& m : c.started) merged.emplace_back(c.rank, m.tag, m.peer);
  });
  RecordStream alone(set);
  for (int rank : {0, 1}) {
    EXPECT_EQ(alone.run_rank(rank,
                             [&](const ResolvedCall& c) {
                               for (const MessageEnd& m : c.started) one_by_one.emplace_back(c.rank, m.tag, m.peer);
                             }),
              0u);
  }
  std::sort(merged.begin(), merged.end());
  // On the dup, peer 1 - rank is that world rank; on the split, comm rank 0 is world rank 1.
  EXPECT_EQ(merged, (std::vector<Send>{{0, 1, 1}, {0, 2, 1}, {1, 1, 0}, {1, 2, 1}}));
  EXPECT_EQ(one_by_one, merged);
}

}  // namespace
}  // namespace amp::trace
