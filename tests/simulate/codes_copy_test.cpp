// SPDX-License-Identifier: BSD-3-Clause
// The copy CODES replays (trace/codes/) on hand-made traces (tests/trace/dumpi_trace_builder.hpp): every
// collective's rounds pair up member by member and finish even when a send waits for its receive; a
// sub-communicator's ranks become world ranks; persistent requests, Waitany and Sendrecv become messages
// with the copy's own requests and exactly the waits that completed them; the compute between calls is
// kept to the nanosecond and the paused set-up taken out; the copy is a valid DUMPI trace; what it cannot
// express is refused in one line naming rank, record and call, and nothing is left at the output path.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../trace/dumpi_trace_builder.hpp"
#include <amp/trace/codes/collective_rounds.hpp>
#include <amp/trace/codes/replay_copy.hpp>
#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_validation.hpp>

namespace amp::trace {
namespace {

namespace fs = std::filesystem;
using codes::CollectiveShape;
using codes::Round;
using test::BuiltStatus;
using test::RankTrace;

constexpr std::uint16_t kDouble = 14, kInt = 9;
const std::vector<std::uint16_t> kLowered = {kBarrier, kBcast,   kReduce,    kAllreduce,
                                             kGather,  kScatter, kAllgather, kAlltoall};

// Messages each algorithm sends on n members.
std::size_t expected_messages(std::uint16_t function, int n) {
  int rounds = 0;
  while ((1 << rounds) < n) ++rounds;
  const auto members = static_cast<std::size_t>(n);
  switch (function) {
    case kBarrier:
      return members * static_cast<std::size_t>(rounds);
    case kAllreduce:
      return 2 * (members - 1);
    case kAllgather:
      return members * static_cast<std::size_t>(rounds);
    case kAlltoall:
      return members * (members - 1);
    default:
      return members - 1;
  }
}

// Every member's rounds: the k-th message from a to b is sent and received with the same bytes, and the
// members get through their rounds even when a send completes only once its receive is posted.
void check_rounds(std::uint16_t function, int n, int root) {
  const std::string label =
      std::string(function_name(function)) + " on " + std::to_string(n) + " root " + std::to_string(root);
  std::vector<std::vector<Round>> rounds;
  std::map<std::pair<int, int>, std::vector<std::int64_t>> sent, received;  // (from, to) -> bytes in order
  std::size_t messages = 0;
  for (int me = 0; me < n; ++me) {
    CollectiveShape shape{function, n, me, root, 8 * (me + 1), 8 * (me + 1)};
    if (function == kAllgather || function == kAlltoall || function == kGather || function == kScatter)
      shape.bytes = shape.recv_bytes = 24;  // one block size for all (the calls' rule)
    auto r = codes::collective_rounds(shape);
    ASSERT_TRUE(r.has_value()) << label;
    for (const Round& round : *r) {
      for (const auto& t : round.sends) {
        ASSERT_TRUE(t.peer >= 0 && t.peer < n && t.peer != me) << label;
        sent[{me, t.peer}].push_back(t.bytes);
        ++messages;
      }
      for (const auto& t : round.receives) received[{t.peer, me}].push_back(t.bytes);
    }
    rounds.push_back(std::move(*r));
  }
  if (function == kBcast || function == kReduce || function == kAllreduce) {
    for (auto& [pair, bytes] : received)  // a receiver takes the sender's buffer size: compare counts only
      for (auto& b : bytes) b = 0;
    for (auto& [pair, bytes] : sent)
      for (auto& b : bytes) b = 0;
  }
  EXPECT_EQ(sent, received) << label;
  EXPECT_EQ(messages, expected_messages(function, n)) << label;
  // Progress: member m finishes its current round once each of its sends' receives and each of its
  // receives' sends is posted (a peer posts a round's messages when it reaches the round).
  std::vector<std::size_t> at(static_cast<std::size_t>(n), 0);
  std::map<std::pair<int, int>, std::size_t> posted_sends, posted_receives;
  const auto post = [&](int m) {
    if (at[static_cast<std::size_t>(m)] >= rounds[static_cast<std::size_t>(m)].size()) return;
    const Round& round = rounds[static_cast<std::size_t>(m)][at[static_cast<std::size_t>(m)]];
    for (const auto& t : round.sends) ++posted_sends[{m, t.peer}];
    for (const auto& t : round.receives) ++posted_receives[{t.peer, m}];
  };
  for (int m = 0; m < n; ++m) post(m);
  for (bool moved = true; moved;) {
    moved = false;
    for (int m = 0; m < n; ++m) {
      auto& k = at[static_cast<std::size_t>(m)];
      if (k >= rounds[static_cast<std::size_t>(m)].size()) continue;
      const Round& round = rounds[static_cast<std::size_t>(m)][k];
      // the pair's count so far includes this round's; each must be matched by the peer's postings
      const bool done = std::all_of(round.sends.begin(), round.sends.end(),
                                    [&](const auto& t) {
                                      return posted_receives[{m, t.peer}] >= posted_sends[{m, t.peer}];
                                    }) &&
                        std::all_of(round.receives.begin(), round.receives.end(), [&](const auto& t) {
                          return posted_sends[{t.peer, m}] >= posted_receives[{t.peer, m}];
                        });
      if (!done) continue;
      ++k;
      post(m);
      moved = true;
    }
  }
  for (int m = 0; m < n; ++m)
    EXPECT_EQ(at[static_cast<std::size_t>(m)], rounds[static_cast<std::size_t>(m)].size())
        << label << ": member " << m << " never gets past round " << at[static_cast<std::size_t>(m)];
}

TEST(CodesCollectiveRounds, EveryMembersRoundsPairUpAndFinish) {
  for (std::uint16_t function : kLowered)
    for (int n = 1; n <= 9; ++n)
      for (int root = 0; root < n; ++root) check_rounds(function, n, root);
}

TEST(CodesCollectiveRounds, CollectivesWithoutARoundFormAreNone) {
  for (std::uint16_t function : {kAllgatherv, kAlltoallv, kScan, kSend})
    EXPECT_FALSE(codes::collective_rounds(CollectiveShape{function, 4, 0, 0, 8, 8}).has_value());
}

// One record of the copy, as read back by AMP's reader.
struct Copied {
  std::uint16_t function;
  std::int64_t at_ns;
  std::map<std::string, std::int64_t> scalars;
  std::vector<std::int32_t> requests;
};

class CodesCopyTest : public ::testing::Test {
 protected:
  static std::vector<RankTrace> ranks(int n) {
    std::vector<RankTrace> r(static_cast<std::size_t>(n));
    for (auto& rank : r) rank.at(10).init();
    return r;
  }
  fs::path dir() const {
    return fs::path(AMP_SIMULATE_TEST_DIR) /
           ("codes-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  }
  codes::ReplayCopyResult copy(std::vector<RankTrace> r) {
    for (auto& rank : r) rank.at(100000).finalize();
    fs::remove_all(dir());
    fs::create_directories(dir() / "trace");
    test::write_trace((dir() / "trace").string(), "built", r);
    return codes::write_replay_copy((dir() / "trace").string(), (dir() / "codes").string());
  }
  std::vector<Copied> records(int rank) const {
    const TraceFile file =
        TraceFile::open(test::rank_file((dir() / "codes").string(), "built", static_cast<std::size_t>(rank)));
    EXPECT_EQ(first_problem(file), std::nullopt);
    std::vector<Copied> out;
    TraceFile::Cursor cursor = file.records();
    while (auto record = cursor.next()) {
      Copied c{record->function, record->wall_start.sec * 1000000000 + record->wall_start.nsec, {}, {}};
      EXPECT_EQ(record->wall_start.sec, record->wall_stop.sec);
      EXPECT_EQ(record->wall_start.nsec, record->wall_stop.nsec);
      for (const Field& f : record->fields) {
        if (f.spec == nullptr) continue;
        if (std::string(f.spec->name) == "requests")
          c.requests = f.values;
        else
          c.scalars[f.spec->name] = f.value;
      }
      out.push_back(c);
    }
    return out;
  }
  // The copy's point-to-point records of a rank as "Isend dest=2 tag=.. bytes=.." lines (waits by request).
  std::vector<std::string> lines(int rank) const {
    std::vector<std::string> out;
    for (const Copied& c : records(rank)) {
      std::string line(function_name(c.function));
      for (const char* key : {"count", "dest", "source", "tag", "request"})
        if (c.scalars.count(key)) line += std::string(" ") + key + "=" + std::to_string(c.scalars.at(key));
      for (std::int32_t r : c.requests) line += " " + std::to_string(r);
      if (c.scalars.count("datatype")) {
        EXPECT_EQ(c.scalars.at("datatype"), 5) << line;  // MPI_BYTE
        EXPECT_EQ(c.scalars.at("comm"), 2) << line;      // MPI_COMM_WORLD
      }
      out.push_back(line);
    }
    return out;
  }
  std::string refusal(std::vector<RankTrace> r) {
    try {
      copy(std::move(r));
    } catch (const std::runtime_error& error) {
      EXPECT_FALSE(fs::exists(dir() / "codes"));
      for (const auto& entry : fs::directory_iterator(dir()))
        EXPECT_EQ(entry.path().filename(), "trace") << "left behind: " << entry.path();
      return error.what();
    }
    ADD_FAILURE() << "the copy was not refused";
    return "";
  }
};

TEST_F(CodesCopyTest, SubCommunicatorRanksBecomeWorldRanks) {
  auto r = ranks(3);
  for (int i = 0; i < 3; ++i) r[static_cast<std::size_t>(i)].at(100).comm_split(2, i > 0 ? 0 : 1, i, 4);
  r[1].at(200).isend(10, kDouble, 1, 5, 2, 4).wait(2);              // comm rank 1 of {1, 2}: world rank 2
  r[2].at(200).irecv(10, kDouble, 0, 5, 2, 4).wait(2, {80, 0, 5});  // comm rank 0: world rank 1
  for (auto& rank : r) rank.at(300).barrier(4);                     // {1, 2}: one round; rank 0 alone: no message
  const codes::ReplayCopyResult result = copy(r);
  EXPECT_EQ(result.messages, 1u);
  EXPECT_EQ(result.bytes, 80u);
  EXPECT_EQ(result.collectives, 6u);  // the split's allgather of 12 bytes on the world, 3 members; the barriers
  EXPECT_EQ(result.collective_messages, 8u);
  EXPECT_EQ(result.collective_bytes, 72u);
  const std::vector<std::string> one = lines(1), two = lines(2);
  // after MPI_Init and the split's allgather (2 rounds of Isend, Irecv, Waitall): the message, on the world
  ASSERT_EQ(one.size(), 1u + 6u + 2u + 3u + 1u);
  EXPECT_EQ(one[7], "MPI_Isend count=80 dest=2 tag=1024 request=6");
  EXPECT_EQ(one[8], "MPI_Wait request=6");
  EXPECT_EQ(two[7], "MPI_Irecv count=80 source=1 tag=1024 request=6");
  // the barrier on {1, 2}: between world ranks 1 and 2, on its own channel (communicator) of the pair
  EXPECT_EQ(one[9], "MPI_Isend count=0 dest=2 tag=2048 request=7");
  EXPECT_EQ(one[10], "MPI_Irecv count=0 source=2 tag=1024 request=8");
  EXPECT_EQ(lines(0).size(), 1u + 6u + 1u);                        // alone on its communicator: no barrier message
  EXPECT_EQ(one[1], "MPI_Isend count=12 dest=0 tag=0 request=2");  // Bruck: to rank - 1, from rank + 1
  EXPECT_EQ(two[2], "MPI_Irecv count=12 source=0 tag=0 request=3");
}

TEST_F(CodesCopyTest, PersistentRequestsWaitanyAndSendrecvBecomeMessagesWithTheirOwnRequests) {
  auto r = ranks(2);
  r[0].at(100).call(kSendInit, test::ExpectedBytes().i32(4).u16(kInt).i32(1).i32(9).u16(2).i32(7));
  r[0].start(7).wait(7).start(7).wait(7);
  r[0].sendrecv(2, kDouble, 1, 3, 2, kDouble, 1, 3, {16, 1, 3});
  r[1].at(100).irecv(4, kInt, 0, 9, 2).irecv(4, kInt, 0, 9, 3);
  // Waitany over requests (2, 3): index 0 completes request 2; then over (null, 3): index 1 completes 3
  const auto waitany = [](std::int32_t first, std::int32_t index) {
    return test::ExpectedBytes().i32(2).u32(2).i32(first).i32(3).i32(index).u32(1).i32(16).i32(0).u8(0).u8(0).i32(9);
  };
  r[1].call(kWaitany, waitany(2, 0)).call(kWaitany, waitany(1, 1));
  r[1].sendrecv(2, kDouble, 0, 3, 2, kDouble, 0, 3, {16, 0, 3});
  copy(r);
  EXPECT_EQ(lines(0), (std::vector<std::string>{"MPI_Init", "MPI_Isend count=16 dest=1 tag=0 request=2",
                                                "MPI_Wait request=2", "MPI_Isend count=16 dest=1 tag=1 request=3",
                                                "MPI_Wait request=3", "MPI_Irecv count=16 source=1 tag=0 request=4",
                                                "MPI_Isend count=16 dest=1 tag=1024 request=5",
                                                "MPI_Waitall count=2 4 5", "MPI_Finalize"}));
  EXPECT_EQ(lines(1), (std::vector<std::string>{"MPI_Init", "MPI_Irecv count=16 source=0 tag=0 request=2",
                                                "MPI_Irecv count=16 source=0 tag=1 request=3", "MPI_Wait request=2",
                                                "MPI_Wait request=3", "MPI_Irecv count=16 source=0 tag=1024 request=4",
                                                "MPI_Isend count=16 dest=0 tag=0 request=5", "MPI_Waitall count=2 4 5",
                                                "MPI_Finalize"}));
}

TEST_F(CodesCopyTest, ComputeIsKeptToTheNanosecondAndThePausedSetUpTakenOut) {
  auto r = ranks(2);
  // Init 10..11 us; paused from 20 us to the end of the resume at 5001 us, a Comm_dup inside
  r[0].at(20).pcontrol(0).at(1000).comm_dup(2, 4).at(5000).pcontrol(1).at(5101).send(1, kInt, 1, 0);
  r[1].at(20).pcontrol(0).at(1000).comm_dup(2, 4).at(5000).pcontrol(1).at(5201).recv(1, kInt, 0, 0, {4, 0, 0});
  const codes::ReplayCopyResult result = copy(r);
  const std::vector<Copied> zero = records(0), one = records(1);
  // Init at 0; the Comm_dup's allreduce at 0 (paused: no compute); the send after the 100 us since the resume;
  // MPI_Finalize (at 100 ms) after the 94898 us since the send returned
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const Copied& c : zero) got.emplace_back(function_name(c.function), c.at_ns);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::int64_t>>{{"MPI_Init", 0},
                                                                    {"MPI_Irecv", 0},
                                                                    {"MPI_Wait", 0},
                                                                    {"MPI_Isend", 0},
                                                                    {"MPI_Wait", 0},
                                                                    {"MPI_Send", 100000},
                                                                    {"MPI_Finalize", 100000 + 94898000}}));
  EXPECT_EQ(one[5].function, kRecv);
  EXPECT_EQ(one[5].at_ns, 200000);
  ASSERT_EQ(result.paused_seconds.size(), 2u);
  EXPECT_NEAR(result.paused_seconds[0], 4981e-6, 1e-12);
}

TEST_F(CodesCopyTest, AMessageAfterMpiFinalizeIsRefused) {
  auto r = ranks(2);
  r[0].at(100).finalize().at(200).send(1, kInt, 1, 0);
  r[1].at(100).recv(1, kInt, 0, 0, {4, 0, 0});
  EXPECT_EQ(refusal(r),
            "rank 0 record 3 MPI_Send: moves data after MPI_Finalize, where CODES' replay of the rank "
            "has ended");
}

TEST_F(CodesCopyTest, AWildcardReceiveIsRefused) {
  auto r = ranks(2);
  r[0].at(100).send(1, kInt, 1, 0);
  r[1].at(100).irecv(1, kInt, -1, 0, 2).wait(2, {4, 0, 0});
  EXPECT_EQ(refusal(r),
            "rank 1 record 2 MPI_Irecv: a receive from MPI_ANY_SOURCE names no source when it is posted; "
            "the copy needs it");
}

TEST_F(CodesCopyTest, OneSidedCallsAreRefused) {
  auto r = ranks(2);
  r[1].at(50).win_create(64, 1);
  EXPECT_EQ(refusal(r),
            "rank 1 record 2 MPI_Win_create: has no form in the copy for CODES (one-sided, partitioned, "
            "neighbourhood, nonblocking collective and I/O calls are not copied)");
}

TEST_F(CodesCopyTest, ACopyIntoAnExistingFolderIsRefused) {
  auto r = ranks(1);
  copy(r);
  EXPECT_THROW(codes::write_replay_copy((dir() / "trace").string(), (dir() / "codes").string()), std::runtime_error);
}

}  // namespace
}  // namespace amp::trace
