// Unit tests of the OTF2 export's parts on hand-made records: Comm_split membership ordered by key
// across ranks, request ids that sst-dumpi recycles and shares, Score-P's collective byte counts.
// (The whole export is checked against amp-trace stats by otf2_export_test.py.)
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "format/dumpi_format.hpp"
#include "otf2/collective_bytes.hpp"
#include "otf2/communicator_table.hpp"
#include "otf2/request_tracker.hpp"
#include "reader/call_schema.hpp"
#include "reader/trace_error.hpp"

namespace amp::trace::otf2 {
namespace {

// A record of `function` with the named scalar fields set (others 0, statuses absent).
Record make_record(std::uint16_t function, const std::map<std::string, std::int64_t>& values) {
  Record r;
  r.function = function;
  for (const FieldSpec& spec : *call_schema(function)) {
    Field f;
    f.spec = &spec;
    auto found = values.find(spec.name);
    if (found != values.end()) f.value = found->second;
    f.present = spec.kind != FieldKind::kStatus && spec.kind != FieldKind::kStatusArray;
    r.fields.push_back(f);
  }
  return r;
}

TEST(CommunicatorTable, SplitMembersAreOrderedByKeyThenParentRank) {
  CommunicatorTable table(4);
  // Each rank: Comm_split(MPI_COMM_WORLD, colour = rank % 2, key = 10 - rank) -> local id 4.
  for (int rank = 0; rank < 4; ++rank) {
    table.begin_rank(rank);
    table.observe(make_record(kCommSplit, {{"oldcomm", dumpi_comm::kWorld}, {"color", rank % 2},
                                           {"key", 10 - rank}, {"newcomm", 4}}));
  }
  table.resolve_members();
  ASSERT_EQ(table.communicators().size(), 4u);  // world, self, colour 0, colour 1
  EXPECT_EQ(table.communicators()[2].members, (std::vector<int>{2, 0}));
  EXPECT_EQ(table.communicators()[3].members, (std::vector<int>{3, 1}));
  table.replay_rank(3);
  table.replay(make_record(kCommSplit, {{"oldcomm", dumpi_comm::kWorld}, {"newcomm", 4}}));
  EXPECT_EQ(table.comm(4), 3u);
  EXPECT_EQ(table.rank_in(3, 3), 0);
  EXPECT_EQ(table.rank_in(3, 1), 1);
}

TEST(CommunicatorTable, DupOfSplitKeepsMembersAndLocalIdsFollowFree) {
  CommunicatorTable table(3);
  for (int rank = 0; rank < 3; ++rank) {
    table.begin_rank(rank);
    // Ranks 0 and 2 get colour 0; rank 1 passes MPI_UNDEFINED and gets MPI_COMM_NULL.
    table.observe(make_record(kCommSplit, {{"oldcomm", dumpi_comm::kWorld}, {"color", rank == 1 ? -32766 : 0},
                                           {"key", 0}, {"newcomm", rank == 1 ? dumpi_comm::kNull : 4}}));
    if (rank != 1) {
      table.observe(make_record(kCommDup, {{"oldcomm", 4}, {"newcomm", 5}}));
      table.observe(make_record(kCommFree, {{"comm", 4}}));
      // The freed id is reused by the next communicator: a second dup of MPI_COMM_WORLD.
    }
    table.observe(make_record(kCommDup, {{"oldcomm", dumpi_comm::kWorld}, {"newcomm", 4}}));
  }
  table.resolve_members();
  const auto& comms = table.communicators();
  ASSERT_EQ(comms.size(), 5u);
  EXPECT_EQ(comms[2].members, (std::vector<int>{0, 2}));
  EXPECT_EQ(comms[3].kind, Communicator::Kind::kDup);
  EXPECT_EQ(comms[3].members, (std::vector<int>{0, 2}));
  EXPECT_EQ(comms[4].members, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(table.size_of(kSelfComm), 1u);
}

TEST(CommunicatorTable, RanksDisagreeingOnTheCreationCallIsAnError) {
  CommunicatorTable table(2);
  table.begin_rank(0);
  table.observe(make_record(kCommDup, {{"oldcomm", dumpi_comm::kWorld}, {"newcomm", 4}}));
  table.begin_rank(1);
  EXPECT_THROW(table.observe(make_record(kCommSplit, {{"oldcomm", dumpi_comm::kWorld}, {"newcomm", 4}})),
               TraceFormatError);
}

TEST(RequestTracker, RecycledAndSharedIdsCompleteOldestFirst) {
  RequestTracker tracker;
  PointToPoint first, second;
  first.is_send = second.is_send = true;
  first.peer = 1;
  second.peer = 2;
  const std::uint64_t a = tracker.start(7, first);   // MPICH shares one handle among eager sends,
  const std::uint64_t b = tracker.start(7, second);  // so sst-dumpi records the same id twice
  EXPECT_NE(a, b);
  EXPECT_EQ(tracker.outstanding(), 2u);
  auto done = tracker.complete(7);
  ASSERT_TRUE(done);
  EXPECT_EQ(done->otf2_request, a);
  EXPECT_EQ(done->message.peer, 1);
  EXPECT_EQ(tracker.complete(7)->otf2_request, b);
  EXPECT_FALSE(tracker.complete(7));
  const std::uint64_t c = tracker.start(7, first);  // the handle value recycled for a new operation
  EXPECT_EQ(tracker.complete(7)->otf2_request, c);
  EXPECT_EQ(tracker.outstanding(), 0u);
}

TEST(RequestTracker, PersistentRequestsStartManyOperationsUntilFreed) {
  RequestTracker tracker;
  PointToPoint recv;
  recv.peer = 3;
  recv.bytes = 16;
  tracker.define_persistent(4, recv);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(tracker.persistent(4));
    tracker.start(4, *tracker.persistent(4));
    auto done = tracker.complete(4);
    ASSERT_TRUE(done);
    EXPECT_EQ(done->message.bytes, 16u);
  }
  EXPECT_FALSE(tracker.free(4));  // freeing the persistent request closes no operation
  EXPECT_FALSE(tracker.persistent(4));
  tracker.start(5, recv);
  EXPECT_TRUE(tracker.free(5));   // freeing an active Irecv hands it back to be closed
}

TEST(CollectiveBytes, FollowScorePConventions) {
  const ByteCounter eight_per_element = [](std::int64_t count, std::int64_t) { return std::uint64_t(count) * 8; };
  auto call = [&](const Record& r, std::int64_t me) { return *collective_call(r, 4, me, eight_per_element); };
  const Record bcast = make_record(kBcast, {{"count", 2}, {"root", 1}});
  EXPECT_EQ(call(bcast, 1).sent, 64u);
  EXPECT_EQ(call(bcast, 1).received, 16u);
  EXPECT_EQ(call(bcast, 0).sent, 0u);
  EXPECT_EQ(*call(bcast, 0).root, 1);
  const Record reduce = make_record(kReduce, {{"count", 1}, {"root", 0}});
  EXPECT_EQ(call(reduce, 0).received, 32u);
  EXPECT_EQ(call(reduce, 2).sent, 8u);
  EXPECT_EQ(call(reduce, 2).received, 0u);
  const Record scan = make_record(kScan, {{"count", 1}});
  EXPECT_EQ(call(scan, 1).sent, 24u);      // to ranks 1, 2, 3
  EXPECT_EQ(call(scan, 1).received, 16u);  // from ranks 0, 1
  EXPECT_FALSE(call(scan, 1).root);
  const Record alltoall = make_record(kAlltoall, {{"sendcount", 3}, {"recvcount", 3}});
  EXPECT_EQ(call(alltoall, 0).sent, 96u);
  EXPECT_EQ(call(alltoall, 0).op, OTF2_COLLECTIVE_OP_ALLTOALL);
  EXPECT_FALSE(collective_call(make_record(kSend, {}), 4, 0, eight_per_element));
}

}  // namespace
}  // namespace amp::trace::otf2
