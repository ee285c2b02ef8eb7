// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the OTF2 export's parts on hand-made records: communicator definitions as a view of
// the registry (split membership ordered by key, Comm_create and Cart_create followed, names), Score-P's
// collective byte counts. (Request ids sst-dumpi recycles and shares: record_stream_test.cpp.)
// (The whole export is checked against amp-trace stats by test_otf2_export.py.)
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/otf2/collective_bytes.hpp>
#include <amp/trace/otf2/communicator_table.hpp>
#include <amp/trace/reader/call_schema.hpp>
#include <amp/trace/reader/comm_registry.hpp>

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

TEST(CommunicatorTable, DefinitionsFollowTheRegistryNamedForTheirCreationCalls) {
  CommRegistry registry(4);
  // Each rank: Comm_split(MPI_COMM_WORLD, colour = rank % 2, key = 10 - rank) -> local id 4, then
  // Comm_create of the split (all members) -> 5 and Cart_create of MPI_COMM_WORLD -> 6.
  for (int rank = 0; rank < 4; ++rank) registry.created(rank, kCommSplit, dumpi_comm::kWorld, rank % 2, 10 - rank, 4);
  for (int rank = 0; rank < 4; ++rank) registry.created(rank, kCommCreate, 4, 0, 0, 5);
  for (int rank = 0; rank < 4; ++rank) registry.created(rank, kCartCreate, dumpi_comm::kWorld, 0, 0, 6);
  CommunicatorTable table(registry, 4);
  const CommIndex odd = table.comm(registry.resolve(3, 4), 3, 4);
  const CommIndex created_on_odd = table.comm(registry.resolve(1, 5), 1, 5);
  const CommIndex cart = table.comm(registry.resolve(2, 6), 2, 6);
  const CommIndex self = table.comm(registry.resolve(2, dumpi_comm::kSelf), 2, dumpi_comm::kSelf);
  const CommIndex unknown = table.comm(registry.resolve(2, 9), 2, 9);
  const auto& comms = table.communicators();
  ASSERT_EQ(comms.size(), 8u);  // world, self, colour 0, colour 1, two creates, cart, unknown
  EXPECT_EQ(comms[2].name, "Comm_split #1 of MPI_COMM_WORLD colour 0");
  EXPECT_EQ(comms[2].members, (std::vector<int>{2, 0}));
  EXPECT_EQ(comms[odd].name, "Comm_split #1 of MPI_COMM_WORLD colour 1");
  EXPECT_EQ(comms[odd].members, (std::vector<int>{3, 1}));
  EXPECT_EQ(comms[created_on_odd].name, "Comm_create #1 of Comm_split #1 of MPI_COMM_WORLD colour 1");
  EXPECT_EQ(comms[created_on_odd].members, (std::vector<int>{3, 1}));
  EXPECT_EQ(*comms[created_on_odd].parent, odd);
  EXPECT_EQ(comms[cart].name, "Cart_create #2 of MPI_COMM_WORLD");
  EXPECT_EQ(comms[cart].members, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(self, kSelfComm);
  EXPECT_EQ(table.size_of(kSelfComm), 1u);
  EXPECT_EQ(comms[unknown].name, "comm 9 of rank 2 (creation not recorded)");
  EXPECT_EQ(table.rank_in(odd, 3), 0);
  EXPECT_EQ(table.rank_in(odd, 1), 1);
  EXPECT_EQ(table.rank_in(odd, 0), -1);
}

TEST(CollectiveBytes, FollowScorePConventions) {
  // The stream's blocks: `send` bytes of the call's (send) datatype, `recv` of its receive datatype.
  const auto blocks = [](std::int64_t send, std::int64_t recv = -1) {
    amp::trace::CollectiveCall resolved;
    resolved.bytes = send;
    resolved.recv_bytes = recv;
    return resolved;
  };
  auto call = [&](const Record& r, const amp::trace::CollectiveCall& resolved, std::int64_t me) {
    return *collective_call(r, resolved, 4, me);
  };
  const Record bcast = make_record(kBcast, {{"count", 2}, {"root", 1}});
  EXPECT_EQ(call(bcast, blocks(16), 1).sent, 64u);
  EXPECT_EQ(call(bcast, blocks(16), 1).received, 16u);
  EXPECT_EQ(call(bcast, blocks(16), 0).sent, 0u);
  EXPECT_EQ(*call(bcast, blocks(16), 0).root, 1);
  const Record reduce = make_record(kReduce, {{"count", 1}, {"root", 0}});
  EXPECT_EQ(call(reduce, blocks(8), 0).received, 32u);
  EXPECT_EQ(call(reduce, blocks(8), 2).sent, 8u);
  EXPECT_EQ(call(reduce, blocks(8), 2).received, 0u);
  const Record gather = make_record(kGather, {{"root", 0}});
  EXPECT_EQ(call(gather, blocks(8, 8), 0).received, 32u);
  EXPECT_EQ(call(gather, blocks(8, -1), 3).sent, 8u);
  const Record scan = make_record(kScan, {{"count", 1}});
  EXPECT_EQ(call(scan, blocks(8), 1).sent, 24u);      // to ranks 1, 2, 3
  EXPECT_EQ(call(scan, blocks(8), 1).received, 16u);  // from ranks 0, 1
  EXPECT_FALSE(call(scan, blocks(8), 1).root);
  const Record alltoall = make_record(kAlltoall, {{"sendcount", 3}, {"recvcount", 3}});
  EXPECT_EQ(call(alltoall, blocks(24, 24), 0).sent, 96u);
  EXPECT_EQ(call(alltoall, blocks(24, 24), 0).op, OTF2_COLLECTIVE_OP_ALLTOALL);
  const Record alltoallv = make_record(kAlltoallv, {});
  EXPECT_EQ(call(alltoallv, blocks(40, 56), 2).sent, 40u);     // the sums of the counts, not times n
  EXPECT_EQ(call(alltoallv, blocks(-1, -1), 2).received, 0u);  // sizes unknown: 0
  EXPECT_FALSE(collective_call(make_record(kSend, {}), blocks(8), 4, 0));
}

}  // namespace
}  // namespace amp::trace::otf2
