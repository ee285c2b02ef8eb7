// SPDX-License-Identifier: BSD-3-Clause
// export_time_independent on hand-made traces (tests/trace/dumpi_trace_builder.hpp): the exact TI
// actions of point-to-point, persistent, Sendrecv and collective calls, and the traffic of communicator
// creation on the world (none from a sub-communicator); a tear-down that is neither compute nor measured
// (nor, in SST-macro's copy, replayed); compute exact at the slowest host speed; outstanding messages on one
// channel get distinct tags, the same on both sides; each call with no TI form is refused in one
// line naming rank, record and call, and nothing is left at the output path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../trace/dumpi_trace_builder.hpp"
#include <amp/trace/simgrid/replay_settings.hpp>
#include <amp/trace/simgrid/ti_export.hpp>
#include <amp/trace/sstmac/unpaused_copy.hpp>

namespace amp::trace {
namespace {

namespace fs = std::filesystem;
using test::BuiltStatus;
using test::RankTrace;

constexpr std::uint16_t kDouble = 14, kInt = 9;

class TiExportTest : public ::testing::Test {
 protected:
  // Every rank starts with MPI_Init at 10 us and ends with MPI_Finalize at 100 ms.
  static std::vector<RankTrace> ranks(int n) {
    std::vector<RankTrace> r(static_cast<std::size_t>(n));
    for (auto& rank : r) rank.at(10).init();
    return r;
  }
  fs::path dir() const {
    return fs::path(AMP_SIMULATE_TEST_DIR) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  simgrid::TiExportResult export_ranks(std::vector<RankTrace> r, const simgrid::TiExportOptions& options = {}) {
    for (auto& rank : r) rank.at(100000).finalize();
    fs::remove_all(dir());
    fs::create_directories(dir() / "trace");
    test::write_trace((dir() / "trace").string(), "built", r);
    return simgrid::export_time_independent((dir() / "trace").string(), (dir() / "ti").string(), options);
  }
  // The rank's whole file, compute lines included.
  std::string text(int rank) const {
    std::ifstream in(dir() / "ti" / ("rank-" + std::to_string(rank) + ".txt"));
    std::stringstream whole;
    whole << in.rdbuf();
    return whole.str();
  }
  // The rank's actions, compute lines left out (their flops follow the builder's clock).
  std::vector<std::string> actions(int rank) const {
    std::istringstream in(text(rank));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      if (line.find(" compute ") == std::string::npos) lines.push_back(line);
    return lines;
  }
  // Refused: the one-line message, and nothing at the output path or beside it.
  std::string refusal(std::vector<RankTrace> r) {
    try {
      export_ranks(std::move(r));
    } catch (const std::runtime_error& error) {
      EXPECT_FALSE(fs::exists(dir() / "ti"));
      for (const auto& entry : fs::directory_iterator(dir()))
        EXPECT_EQ(entry.path().filename(), "trace") << "left behind: " << entry.path();
      return error.what();
    }
    ADD_FAILURE() << "the export was not refused";
    return "";
  }
};

TEST_F(TiExportTest, OutstandingMessagesOnOneChannelGetDistinctTagsTheSameOnBothSides) {
  auto r = ranks(2);
  r[0].at(100).isend(1, kInt, 1, 7, 2).isend(1000, kDouble, 1, 7, 3).waitall({2, 3});
  r[1].at(100).irecv(1, kInt, 0, 7, 2).irecv(1000, kDouble, 0, 7, 3).waitall({2, 3});
  auto result = export_ranks(r);
  EXPECT_EQ(actions(0), (std::vector<std::string>{"0 init", "0 isend 1 0 4", "0 isend 1 1 8000", "0 wait 0 1 0",
                                                  "0 wait 0 1 1", "0 finalize"}));
  EXPECT_EQ(actions(1), (std::vector<std::string>{"1 init", "1 irecv 0 0 4", "1 irecv 0 1 8000", "1 wait 0 1 0",
                                                  "1 wait 0 1 1", "1 finalize"}));
  EXPECT_EQ(result.messages, 2u);
  EXPECT_EQ(result.bytes, 8004u);
  EXPECT_EQ(result.retagged_channels, 1u);
}

TEST_F(TiExportTest, EachChannelOfAPairHasItsOwnTagRange) {
  auto r = ranks(2);
  r[0].at(100).isend(1, kInt, 1, 5, 2).isend(1, kInt, 1, 9, 3).waitall({2, 3});
  r[1].at(100).irecv(1, kInt, 0, 9, 2).irecv(1, kInt, 0, 5, 3).waitall({2, 3});  // posted in the other order
  export_ranks(r);
  EXPECT_EQ(actions(0), (std::vector<std::string>{"0 init", "0 isend 1 0 4", "0 isend 1 1024 4", "0 wait 0 1 0",
                                                  "0 wait 0 1 1024", "0 finalize"}));
  EXPECT_EQ(actions(1), (std::vector<std::string>{"1 init", "1 irecv 0 1024 4", "1 irecv 0 0 4", "1 wait 0 1 1024",
                                                  "1 wait 0 1 0", "1 finalize"}));
}

TEST_F(TiExportTest, PersistentStartsBecomeIsendAndIrecvEachTime) {
  auto r = ranks(2);
  r[0].at(100).isend(2, kDouble, 1, 0, 10, 2, kSendInit);
  r[1].at(100).irecv(2, kDouble, 0, 0, 9, 2, kRecvInit);
  for (int step = 0; step < 2; ++step) {
    r[0].at(200 + 10 * step).start(10).wait(10);
    r[1].at(200 + 10 * step).start(9).wait(9);
  }
  auto result = export_ranks(r);
  EXPECT_EQ(actions(0), (std::vector<std::string>{"0 init", "0 isend 1 0 16", "0 wait 0 1 0", "0 isend 1 1 16",
                                                  "0 wait 0 1 1", "0 finalize"}));
  EXPECT_EQ(actions(1), (std::vector<std::string>{"1 init", "1 irecv 0 0 16", "1 wait 0 1 0", "1 irecv 0 1 16",
                                                  "1 wait 0 1 1", "1 finalize"}));
  EXPECT_EQ(result.per_rank[0].messages_sent, 2u);
  EXPECT_EQ(result.per_rank[0].bytes_sent, 32u);
}

TEST_F(TiExportTest, BlockingCallsSendrecvAndWildcardsResolvedByTheirStatus) {
  auto r = ranks(2);
  r[0].at(100).send(3, kInt, 1, 4).sendrecv(1, kDouble, 1, 6, 1, kDouble, 1, 6, {8, 1, 6});
  r[1].at(100).recv(3, kInt, -1, -1, {12, 0, 4}).sendrecv(1, kDouble, 0, 6, 1, kDouble, 0, 6, {8, 0, 6});
  export_ranks(r);
  // Channel 0 -> 1 tag 4 came first (tags 0...), so 0 -> 1 tag 6 is the pair's second channel (1024...).
  EXPECT_EQ(actions(0), (std::vector<std::string>{"0 init", "0 send 1 0 12", "0 irecv 1 0 8", "0 isend 1 1024 8",
                                                  "0 wait 1 0 0", "0 wait 0 1 1024", "0 finalize"}));
  EXPECT_EQ(actions(1), (std::vector<std::string>{"1 init", "1 recv 0 0 12", "1 irecv 0 1024 8", "1 isend 0 0 8",
                                                  "1 wait 0 1 1024", "1 wait 1 0 0", "1 finalize"}));
}

TEST_F(TiExportTest, CollectivesOnWorldAndItsCopy) {
  auto r = ranks(2);
  for (auto& rank : r) {
    rank.at(100).comm_dup(2, 4).barrier(4);
    rank.call(kAllreduce, test::ExpectedBytes().i32(5).u16(kDouble).u8(1).u16(2));
    rank.call(kBcast, test::ExpectedBytes().i32(3).u16(kInt).i32(1).u16(4));
  }
  auto result = export_ranks(r);
  EXPECT_EQ(actions(1), (std::vector<std::string>{"1 init", "1 allreduce 4 0", "1 barrier", "1 allreduce 40 0",
                                                  "1 bcast 12 1", "1 finalize"}));
  EXPECT_EQ(result.collectives, 8u);  // the dup's id agreement and three collectives, on each rank
}

// As SST-macro (MpiCommFactory: commNewIdAgree, commSplit) and real MPI: Comm_dup and Comm_create of the
// world or a copy agree on the new id with an allreduce of one int, Comm_split gathers (id, color, key).
TEST_F(TiExportTest, CommunicatorCreationOnTheWorldOrItsCopySendsItsAgreementAfterTheComputeBeforeIt) {
  auto r = ranks(3);
  for (int i = 0; i < 3; ++i)
    r[static_cast<std::size_t>(i)].at(100).comm_dup(2, 4).at(110).comm_split(4, 0, i, 5).at(130).comm_create(5, 3, 6);
  auto result = export_ranks(r);
  // Init returns at 11 us; the dup at 100-101, the split (of the dup) at 110-111, the create (of the split's
  // world-like communicator, every rank in color 0) at 130-131, MPI_Finalize at 100 ms.
  EXPECT_EQ(text(2),
            "2 init\n2 compute 89000\n2 allreduce 4 0\n2 compute 9000\n2 allgather 12 12\n"
            "2 compute 19000\n2 allreduce 4 0\n2 compute 99869000\n2 finalize\n");
  EXPECT_EQ(result.collectives, 9u);
}

TEST_F(TiExportTest, CommunicatorCreationFromASubCommunicatorSendsNothingItsTimeIsCompute) {
  auto r = ranks(3);
  for (int i = 0; i < 3; ++i)  // halves {0, 2} and {1}; each half is dup'ed, split and created from
    r[static_cast<std::size_t>(i)]
        .at(100)
        .comm_split(2, i % 2, 0, 4)
        .at(200)
        .comm_dup(4, 5)
        .comm_split(4, 0, 0, 6)
        .comm_create(4, 3, 7)
        .at(300)
        .barrier(2);
  auto result = export_ranks(r);
  // The world's split at 100-101; the barrier at 300: everything between is compute.
  EXPECT_EQ(text(0),
            "0 init\n0 compute 89000\n0 allgather 12 12\n0 compute 199000\n0 barrier\n"
            "0 compute 99699000\n0 finalize\n");
  EXPECT_EQ(actions(1), (std::vector<std::string>{"1 init", "1 allgather 12 12", "1 barrier", "1 finalize"}));
  EXPECT_EQ(result.collectives, 6u);
}

TEST_F(TiExportTest, RecordedTimeBetweenCallsBecomesComputeAtTheHostSpeed) {
  auto r = ranks(1);
  r[0].at(1000).barrier().at(3500).barrier();  // Init returns at 11 us; 989 us, then 2499 us of compute
  export_ranks(r);
  EXPECT_EQ(text(0),
            "0 init\n0 compute 989000\n0 barrier\n0 compute 2499000\n0 barrier\n0 compute 96499000\n"
            "0 finalize\n");
}

// A proxy's run: set-up paused, a traced loop, then its tear-down paused (rank 0's takes 50 ms: it writes
// the results) and tracing resumed only to record MPI_Finalize, which rank 1 reaches 50 ms after it resumed.
std::vector<RankTrace> proxy_with_slow_tear_down() {
  std::vector<RankTrace> r(2);
  for (auto& rank : r) rank.at(10).init().at(20).pcontrol(0).at(100).pcontrol(1).at(200).barrier().at(300).pcontrol(0);
  r[0].at(50000).pcontrol(1);
  r[1].at(400).pcontrol(1);
  return r;  // MPI_Finalize at 100 ms
}

TEST_F(TiExportTest, TearDownWaitBeforeFinalizeIsNeitherComputeNorMeasured) {
  const auto result = export_ranks(proxy_with_slow_tear_down());
  // Compute only from the loop's resume (101 us) to the barrier; nothing after it, on either rank.
  for (int rank = 0; rank < 2; ++rank) {
    const std::string n = std::to_string(rank);
    EXPECT_EQ(text(rank), n + " init\n" + n + " compute 99000\n" + n + " barrier\n" + n + " finalize\n");
  }
  // Measured: the loop's region from its resume to the end of its last action (the barrier's, 201 us); the
  // set-up's region before MPI_Pcontrol(0) and the tear-down's before MPI_Finalize hold no action: no time.
  EXPECT_NEAR(result.recorded_seconds, 100e-6, 1e-12);
  for (const auto& rank : result.per_rank) EXPECT_LE(rank.compute_seconds, result.recorded_seconds);
}

TEST_F(TiExportTest, SstmacCopyTakesOutTheTearDownWaitBeforeFinalize) {
  auto r = proxy_with_slow_tear_down();
  for (auto& rank : r) rank.at(100000).finalize();
  fs::remove_all(dir());
  fs::create_directories(dir() / "trace");
  test::write_trace((dir() / "trace").string(), "built", r);
  const auto copy = sstmac::write_unpaused_copy((dir() / "trace").string(), (dir() / "copy").string());
  // Each rank: 9 us before its first MPI_Pcontrol(0), its two pauses, and every microsecond from its last
  // resume to MPI_Finalize at 100 ms; only the 99 us from the loop's resume to the barrier stay.
  ASSERT_EQ(copy.removed_seconds.size(), 2u);
  // (and the 1 us each of its five records between MPI_Init and MPI_Finalize).
  for (double removed : copy.removed_seconds) EXPECT_NEAR(removed, (100000 - 11 - 99 - 5) * 1e-6, 1e-12);
}

TEST_F(TiExportTest, ComputeBeforeFinalizeStaysWhereTheRegionHadAnAction) {
  auto r = ranks(1);
  r[0].at(1000).barrier();  // traced throughout (--trace-setup): 98999 us of tear-down are the run's
  const auto result = export_ranks(r);
  EXPECT_EQ(text(0), "0 init\n0 compute 989000\n0 barrier\n0 compute 98999000\n0 finalize\n");
  EXPECT_NEAR(result.recorded_seconds, (100000 - 11) * 1e-6, 1e-12);
  EXPECT_EQ(sstmac::write_unpaused_copy((dir() / "trace").string(), (dir() / "copy").string()).removed_seconds,
            std::vector<double>{0.0});
}

TEST_F(TiExportTest, ComputeAtTheSlowestHostSpeedIsWrittenExactly) {
  auto r = ranks(1);
  r[0].at(1000).barrier();
  simgrid::TiExportOptions slow;
  slow.host_speed_flops = simgrid::kSlowestHostSpeed;
  export_ranks(r, slow);
  std::istringstream lines(text(0));
  std::vector<double> flops;
  for (std::string rank, action, amount; lines >> rank >> action;)
    if (action == "compute" && lines >> amount) flops.push_back(std::stod(amount));
  const double per_nanosecond = simgrid::kSlowestHostSpeed / 1e9;
  EXPECT_EQ(flops, (std::vector<double>{989000 * per_nanosecond, 98999000 * per_nanosecond}));
  EXPECT_GT(per_nanosecond, 1.99 * simgrid::kSmallestReplayedFlops);  // SimGrid replays every nanosecond
}

TEST_F(TiExportTest, AHostSpeedWhoseNanosecondSimGridDropsIsRefused) {
  for (double speed : {1e-300, 1e-4, 0.0, -1.0, 1e301}) {
    simgrid::TiExportOptions options;
    options.host_speed_flops = speed;
    auto r = ranks(1);
    for (auto& rank : r) rank.at(100000).finalize();
    fs::remove_all(dir());
    fs::create_directories(dir() / "trace");
    test::write_trace((dir() / "trace").string(), "built", r);
    try {
      simgrid::export_time_independent((dir() / "trace").string(), (dir() / "ti").string(), options);
      ADD_FAILURE() << "host speed " << speed << " was not refused";
    } catch (const std::runtime_error& error) {
      EXPECT_EQ(std::string(error.what()).rfind("the host speed must be 0.0002 to 1e+300 flop/s (got ", 0), 0u)
          << error.what();
    }
    EXPECT_FALSE(fs::exists(dir() / "ti"));
  }
}

TEST_F(TiExportTest, ExportJsonListsEveryReplaySetting) {
  export_ranks(ranks(1));
  std::ifstream in(dir() / "ti" / "export.json");
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string json = whole.str();
  for (std::string_view setting : simgrid::kReplaySettings)
    EXPECT_NE(json.find("\"" + std::string(setting) + "\""), std::string::npos) << setting;
}

TEST_F(TiExportTest, WildcardNonblockingReceiveIsRefused) {
  auto r = ranks(2);
  r[0].at(100).send(1, kInt, 1, 0);
  r[1].at(100).irecv(1, kInt, -1, 0, 2).wait(2, {4, 0, 0});
  EXPECT_EQ(refusal(r),
            "rank 1 record 2 MPI_Irecv: a receive from MPI_ANY_SOURCE (or MPICH's MPI_PROC_NULL) "
            "names no source when it is posted; the TI form needs it");
}

TEST_F(TiExportTest, CollectiveOnASubCommunicatorIsRefused) {
  auto r = ranks(2);
  for (int i = 0; i < 2; ++i) r[static_cast<std::size_t>(i)].at(100).comm_split(2, i, 0, 4).barrier(4);
  EXPECT_EQ(refusal(r),
            "rank 0 record 3 MPI_Barrier: a collective on a communicator other than MPI_COMM_WORLD (or "
            "a copy of it) has no TI form: TI replay runs every collective on MPI_COMM_WORLD");
}

TEST_F(TiExportTest, CompletingAnUnknownRequestIsRefused) {
  auto r = ranks(1);
  r[0].at(100).wait(99);
  EXPECT_EQ(refusal(r), "rank 0 record 2 MPI_Wait: completes request 99 that no recorded call on this rank created");
}

TEST_F(TiExportTest, OneSidedCallIsRefused) {
  auto r = ranks(2);
  r[1].at(50).win_create(64, 1);
  EXPECT_EQ(refusal(r),
            "rank 1 record 2 MPI_Win_create: has no SimGrid time-independent form (one-sided, "
            "partitioned, neighbourhood and I/O calls are not exported)");
}

TEST_F(TiExportTest, ATraceMissingARanksFileIsRefused) {
  auto r = ranks(2);
  for (auto& rank : r) rank.at(100000).finalize();
  fs::remove_all(dir());
  fs::create_directories(dir() / "trace");
  test::write_trace((dir() / "trace").string(), "built", r);
  fs::remove(dir() / "trace" / "built.meta");  // with its .meta, locating the trace already says so
  fs::remove(test::rank_file((dir() / "trace").string(), "built", 0));
  try {
    simgrid::export_time_independent(test::rank_file((dir() / "trace").string(), "built", 1), (dir() / "ti").string());
    ADD_FAILURE() << "the export was not refused";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("holds the files of 1 of its 2 ranks; a replay needs every rank"),
              std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(fs::exists(dir() / "ti"));
}

TEST_F(TiExportTest, AnExistingOutputIsNeverOverwritten) {
  auto r = ranks(1);
  export_ranks(r);
  EXPECT_THROW(simgrid::export_time_independent((dir() / "trace").string(), (dir() / "ti").string()),
               std::runtime_error);
  EXPECT_TRUE(fs::exists(dir() / "ti" / "rank-0.txt"));
}

}  // namespace
}  // namespace amp::trace
