// SPDX-License-Identifier: BSD-3-Clause
// check_replay on hand-made traces (tests/trace/dumpi_trace_builder.hpp): each defect is found with
// its exact kind, rank and record and nothing else; wildcards, Sendrecv, persistent requests and
// split communicators replay clean; sst-dumpi's reference traces replay clean (ring-extra: only its
// one-sided calls); the streaming reader yields the same records as the whole-file reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "dumpi_trace_builder.hpp"
#include <amp/trace/reader/replay_check.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace {
namespace {

namespace fs = std::filesystem;
using test::BuiltStatus;
using test::RankTrace;

constexpr std::uint16_t kDouble = 14, kInt = 9, kByte = 5;

using Found = std::tuple<std::string, int, std::uint64_t, std::string>;  // kind, rank, record, call

class ReplayCheckTest : public ::testing::Test {
 protected:
  // Ends every rank with MPI_Finalize (after all else) and checks the run.
  ReplayCheckReport check(std::vector<RankTrace> ranks, const ReplayCheckOptions& options = {}) {
    for (auto& rank : ranks) rank.at(100000).finalize();
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = fs::path(AMP_REPLAY_TEST_DIR) / info->name();
    fs::remove_all(dir);
    fs::create_directories(dir);
    return check_replay(locate_trace(test::write_trace(dir.string(), "built", ranks)), options);
  }
  static std::vector<Found> found(const ReplayCheckReport& report) {
    std::vector<Found> out;
    for (const auto& f : report.findings) out.emplace_back(finding_kind_name(f.kind), f.rank, f.record, f.call);
    return out;
  }
  static std::vector<RankTrace> ranks(int n) {
    std::vector<RankTrace> r(static_cast<std::size_t>(n));
    for (auto& rank : r) rank.at(10).init();  // record 1 of every rank
    return r;
  }
};

TEST_F(ReplayCheckTest, SmallReceiveIsFoundAtTheReceive) {
  auto r = ranks(2);
  r[1].at(100).irecv(3, kDouble, 0, 0, 2).wait(2, {4096, 0, 0});  // 24-byte buffer
  r[0].at(110).isend(512, kDouble, 1, 0, 2).wait(2);              // 4096-byte message
  auto report = check(r);
  EXPECT_EQ(found(report), (std::vector<Found>{{"small_receive", 1, 2, "MPI_Irecv"}}));
  ASSERT_EQ(report.total(), 1u);
  EXPECT_EQ(report.findings[0].message,
            "receive of 24 bytes is smaller than the 4096-byte message from rank 0 (rank 0 record 2 MPI_Isend, tag 0, "
            "MPI_COMM_WORLD)");
  EXPECT_EQ(report.messages, 1u);
  EXPECT_EQ(report.matched, 1u);
}

TEST_F(ReplayCheckTest, ChannelSizeChangeIsFoundAtTheSecondSend) {
  auto r = ranks(2);  // amp-nobel svcp's pattern: a 24-byte size check, then the data, same channel
  r[1].at(100).irecv(3, kDouble, 0, 7, 2).irecv(512, kDouble, 0, 7, 3).lasting(50).waitall({2, 3});
  r[0].at(110).isend(3, kDouble, 1, 7, 2).isend(512, kDouble, 1, 7, 3).waitall({2, 3});
  auto report = check(r);
  EXPECT_EQ(found(report), (std::vector<Found>{{"channel_size_change", 0, 3, "MPI_Isend"}}));
  EXPECT_EQ(report.total(), 1u);
  EXPECT_EQ(report.matched, 2u);
  EXPECT_EQ(report.findings[0].message,
            "message of 4096 bytes to rank 1 (tag 7, MPI_COMM_WORLD) follows a 24-byte message on the same channel "
            "(rank 0 record 2 MPI_Isend, still in flight); a replayer that does not keep order within a channel can "
            "match it to the "
            "wrong receive");
}

TEST_F(ReplayCheckTest, SizeChangeAfterTheFirstMessageWasReceivedIsFine) {
  auto r = ranks(2);  // e.g. a regrid: the channel's size changes once the old message has arrived
  r[1].at(100).irecv(3, kDouble, 0, 7, 2).lasting(20).wait(2).recv(512, kDouble, 0, 7, {4096, 0, 7});
  r[0].at(110).send(3, kDouble, 1, 7).at(130).send(512, kDouble, 1, 7);
  // By default every size change of a channel is reported (one size per channel)...
  auto strict = check(r);
  EXPECT_EQ(found(strict), (std::vector<Found>{{"channel_size_change", 0, 3, "MPI_Send"}}));
  EXPECT_NE(strict.findings[0].message.find("already received"), std::string::npos) << strict.findings[0].message;
  // ... and only those while the earlier message is in flight when asked (SST-macro replays this one).
  ReplayCheckOptions in_flight_only;
  in_flight_only.every_size_change = false;
  auto relaxed = check(r, in_flight_only);
  EXPECT_EQ(found(relaxed), std::vector<Found>{});
  EXPECT_EQ(relaxed.matched, 2u);
}

TEST_F(ReplayCheckTest, EverySizeChangeIsCountedAndTheDefaultShowsTheInFlightOneToo) {
  auto r = ranks(2);  // 24 bytes (received), 4096 bytes (a change after it arrived), 24 bytes (4096 in flight)
  r[1].at(100).irecv(3, kDouble, 0, 7, 2).lasting(20).wait(2);
  r[1].at(125).irecv(512, kDouble, 0, 7, 3).irecv(3, kDouble, 0, 7, 4).lasting(50).waitall({3, 4});
  r[0].at(110).send(3, kDouble, 1, 7).at(130).isend(512, kDouble, 1, 7, 3).isend(3, kDouble, 1, 7, 4).waitall({3, 4});
  auto strict = check(r);
  EXPECT_EQ(found(strict), (std::vector<Found>{{"channel_size_change", 0, 3, "MPI_Isend"},
                                               {"channel_size_change", 0, 4, "MPI_Isend"}}));
  EXPECT_EQ(strict.total(), 2u);
  ReplayCheckOptions in_flight_only;
  in_flight_only.every_size_change = false;
  auto relaxed = check(r, in_flight_only);
  EXPECT_EQ(found(relaxed), (std::vector<Found>{{"channel_size_change", 0, 4, "MPI_Isend"}}));
}

TEST_F(ReplayCheckTest, SendNeverReceived) {
  auto r = ranks(2);
  r[0].at(100).send(4, kInt, 1, 5);
  r[1].at(100).barrier();
  auto report = check(r);
  EXPECT_EQ(found(report), (std::vector<Found>{{"unmatched_send", 0, 2, "MPI_Send"}}));
  EXPECT_EQ(report.findings[0].message, "message of 16 bytes to rank 1 (tag 5, MPI_COMM_WORLD) is never received");
}

TEST_F(ReplayCheckTest, ReceiveNeverMatched) {
  auto r = ranks(2);
  r[1].at(100).irecv(4, kInt, 0, 9, 2).wait(2);
  r[0].at(100).send(4, kInt, 1, 8);  // another tag: both ends stay unmatched
  auto report = check(r);
  EXPECT_EQ(found(report),
            (std::vector<Found>{{"unmatched_send", 0, 2, "MPI_Send"}, {"unmatched_receive", 1, 2, "MPI_Irecv"}}));
}

TEST_F(ReplayCheckTest, WaitOnARequestNoCallCreated) {
  auto r = ranks(1);
  r[0].at(100).isend(1, kInt, 0, 0, 2).irecv(1, kInt, 0, 0, 3).waitall({2, 3, 1}).wait(7).wait(2);
  auto report = check(r);
  EXPECT_EQ(found(report), (std::vector<Found>{{"unknown_request", 0, 5, "MPI_Wait"}}));
  EXPECT_EQ(report.findings[0].message, "completes request 7 that no call in this rank's trace created");
}

TEST_F(ReplayCheckTest, CommunicatorNoCallCreated) {
  auto r = ranks(2);  // amp-micro's pattern: a communicator from MPI_Comm_split_type, which DUMPI cannot record
  r[0].at(100).send(1, kInt, 1, 0, 4).send(1, kInt, 1, 0, 4);
  r[1].at(100).recv(1, kInt, 0, 0, {4, 0, 0}, 4).recv(1, kInt, 0, 0, {4, 0, 0}, 4);
  auto report = check(r);
  EXPECT_EQ(found(report), (std::vector<Found>{{"undefined_communicator", 0, 2, "MPI_Send"},
                                               {"undefined_communicator", 1, 2, "MPI_Recv"}}));
  EXPECT_NE(report.findings[0].message.find("could not find mpi communicator 4"), std::string::npos);
}

TEST_F(ReplayCheckTest, DatatypeNoCallCreated) {
  auto r = ranks(2);
  r[0].datatype_size(28, 24).datatype_size(29, 8).at(100).send(2, 28, 1, 0);  // 28 never created, 24 bytes
  r[0].send(1, 29, 1, 1);  // never created either, but 8 bytes: replayers substitute a built-in
  r[0].send(1, 30, 1, 2);  // not even in the sizes block
  r[1].datatype_size(28, 24).at(90).type_contiguous(3, kDouble, 28).at(100).recv(2, 28, 0, 0, {48, 0, 0});
  r[1].recv(8, kByte, 0, 1, {8, 0, 1}).recv(8, kByte, 0, 2, {8, 0, 2});
  auto report = check(r);
  EXPECT_EQ(found(report),
            (std::vector<Found>{{"undefined_datatype", 0, 2, "MPI_Send"}, {"undefined_datatype", 0, 4, "MPI_Send"}}));
  EXPECT_EQ(report.findings[0].message,
            "uses datatype 28, which no recorded MPI_Type_* call on this rank created; SST-macro has no 24-byte "
            "built-in to replay it as and aborts (unknown type id)");
  EXPECT_EQ(report.matched, 3u);
}

TEST_F(ReplayCheckTest, CallsSstMacroCannotReplay) {
  auto r = ranks(2);
  for (int i = 0; i < 2; ++i) r[static_cast<std::size_t>(i)].at(100).cart_create(2, {2}, 4).win_create(64, 1);
  r[0].at(200).send(1, kInt, 1, 3, 4);  // the Cartesian communicator itself is well defined
  r[1].at(200).recv(1, kInt, 0, 3, {4, 0, 3}, 4);
  auto report = check(r);
  EXPECT_EQ(found(report), (std::vector<Found>{{"unreplayable_call", 0, 2, "MPI_Cart_create"},
                                               {"unreplayable_call", 0, 3, "MPI_Win_create"},
                                               {"unreplayable_call", 1, 2, "MPI_Cart_create"},
                                               {"unreplayable_call", 1, 3, "MPI_Win_create"}}));
  EXPECT_EQ(report.matched, 1u);
}

TEST_F(ReplayCheckTest, WildcardsUseTheRecordedStatus) {
  auto r = ranks(3);
  r[2].at(100).recv(1, kInt, -1, -1, {4, 1, 4});     // ANY/ANY took rank 1's tag-4 message
  r[2].irecv(1, kInt, -1, 3, 2).wait(2, {4, 0, 3});  // ANY_SOURCE, tag 3
  r[2].recv(1, kInt, 1, 5, {4, 1, 5});
  r[0].at(90).send(1, kInt, 2, 3);  // one size for all: SST-macro, which ignores statuses, replays it too
  r[1].at(95).send(1, kInt, 2, 4).send(1, kInt, 2, 5);
  auto report = check(r);
  EXPECT_EQ(found(report), std::vector<Found>{});
  EXPECT_EQ(report.matched, 3u);
}

TEST_F(ReplayCheckTest, SendrecvPairsMatch) {
  auto r = ranks(2);
  for (int me = 0; me < 2; ++me) {
    const int other = 1 - me;
    r[static_cast<std::size_t>(me)].at(100).sendrecv(8, kByte, other, 1, 8, kByte, other, 1, {8, other, 1});
    r[static_cast<std::size_t>(me)].sendrecv_replace(2, kDouble, other, 2, other, 2, {16, other, 2});
  }
  auto report = check(r);
  EXPECT_EQ(found(report), std::vector<Found>{});
  EXPECT_EQ(report.matched, 4u);
}

TEST_F(ReplayCheckTest, PersistentRequestsStartedManyTimes) {
  auto r = ranks(2);
  r[0].at(100).irecv(0, kInt, 1, 0, 9, 2, kRecvInit).isend(4, kDouble, 1, 0, 10, 2, kSendInit);
  r[1].at(100).irecv(4, kDouble, 0, 0, 9, 2, kRecvInit).isend(0, kInt, 0, 0, 10, 2, kSsendInit);
  for (int step = 0; step < 3; ++step)
    for (auto& rank : r) rank.at(200 + 10 * step).startall({9, 10}).waitall({9, 10});
  r[0].at(300).start(10).wait(10);
  r[1].at(300).start(9).wait(9);
  auto report = check(r);
  EXPECT_EQ(found(report), std::vector<Found>{});
  EXPECT_EQ(report.messages, 7u);
  EXPECT_EQ(report.matched, 7u);
}

TEST_F(ReplayCheckTest, SplitAndDupCommunicatorsTranslateRanks) {
  auto r = ranks(4);  // odd and even world ranks; comm ids differ per rank on purpose
  for (int w = 0; w < 4; ++w) {
    const std::uint16_t split = static_cast<std::uint16_t>(4 + w % 2), dup = 6;
    r[static_cast<std::size_t>(w)].at(100).comm_split(2, w % 2, -w, split).at(110).comm_dup(split, dup);
    // key -w reverses the order: comm rank 0 is world 2 (evens) or world 3 (odds)
    const int comm_rank = w < 2 ? 1 : 0, peer = 1 - comm_rank;
    r[static_cast<std::size_t>(w)].at(200).sendrecv(1, kInt, peer, 0, 1, kInt, peer, 0, {4, peer, 0}, dup);
  }
  auto report = check(r);
  EXPECT_EQ(found(report), std::vector<Found>{});
  EXPECT_EQ(report.matched, 4u);
}

TEST_F(ReplayCheckTest, FindingsAreCountedBeyondTheKeptOnes) {
  auto r = ranks(2);
  r[1].at(100).barrier();
  for (int i = 0; i < 30; ++i) r[0].send(1, kInt, 1, i);
  auto report = check(r);
  EXPECT_EQ(report.counts[static_cast<std::size_t>(FindingKind::kUnmatchedSend)], 30u);
  EXPECT_EQ(report.findings.size(), 20u);
}

TEST(ReplayCheckReference, SstDumpiTracesReplayClean) {
  const std::string base = std::string(AMP_REFERENCE_TRACE_DIR) + "/";
  auto ring = check_replay(locate_trace(base + "ring"));
  EXPECT_EQ(ring.total(), 0u);
  EXPECT_EQ(ring.matched, 16u);
  auto extra = check_replay(locate_trace(base + "ring-extra"));
  EXPECT_EQ(extra.matched, 20u);
  EXPECT_EQ(extra.total(), 20u);  // MPI_Win_create, Win_fence, Put, Get, Win_free on each of 4 ranks
  EXPECT_EQ(extra.counts[static_cast<std::size_t>(FindingKind::kUnreplayableCall)], 20u);
}

TEST(StreamingReader, YieldsTheRecordsTheWholeFileReaderDoes) {
  RankTrace big;
  std::vector<std::int32_t> many(20000, 1);  // one Waitall record of ~80 KB: larger than the window
  big.at(10).init().barrier().waitall(many).barrier().finalize();
  const fs::path dir = fs::path(AMP_REPLAY_TEST_DIR) / "streaming";
  fs::create_directories(dir);
  test::write_trace(dir.string(), "big", {big});
  std::vector<std::string> paths = {(dir / "big-0000.bin").string()};
  for (const char* ref : {"ring", "ring-extra"})
    for (const auto& bin : locate_trace(std::string(AMP_REFERENCE_TRACE_DIR) + "/" + ref).bin_paths)
      paths.push_back(bin);
  for (const auto& path : paths) {
    TraceFile whole = TraceFile::open(path), streamed = TraceFile::open_streaming(path);
    EXPECT_TRUE(streamed.streaming());
    EXPECT_EQ(streamed.size(), whole.size());
    EXPECT_EQ(streamed.datatype_sizes(), whole.datatype_sizes());
    EXPECT_EQ(streamed.footer().call_counts, whole.footer().call_counts);
    auto a = whole.records(), b = streamed.records();
    std::size_t n = 0;
    while (auto x = a.next()) {
      auto y = b.next();
      ASSERT_TRUE(y) << path << " record " << n;
      EXPECT_EQ(y->offset, x->offset);
      EXPECT_EQ(y->function, x->function);
      ASSERT_EQ(y->fields.size(), x->fields.size());
      for (std::size_t i = 0; i < x->fields.size(); ++i) {
        EXPECT_EQ(y->fields[i].value, x->fields[i].value);
        EXPECT_EQ(y->fields[i].values, x->fields[i].values);
      }
      ++n;
    }
    EXPECT_FALSE(b.next());
    EXPECT_EQ(b.saw_end_marker(), a.saw_end_marker());
    EXPECT_GT(n, 3u);
  }
}

}  // namespace
}  // namespace amp::trace
