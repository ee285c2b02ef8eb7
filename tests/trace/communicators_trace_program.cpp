// SPDX-License-Identifier: BSD-3-Clause
// Writes a hand-made 4-rank DUMPI trace whose messages travel on communicators made by each creation
// call the readers follow, with communicator ranks that differ from world ranks, for
// test_communicators_agree.py (libamp_dumpi records no MPI_Comm_create or MPI_Cart_create itself):
//   id 4  Comm_dup(MPI_COMM_WORLD)                       Isend ring r -> r+1, tag 11, 1 int
//   id 5  Comm_split(MPI_COMM_WORLD, r % 2, key -r)      members [2, 0] and [3, 1]; rank 0 -> 1, tag 12, 2 doubles
//   id 6  Comm_create(MPI_COMM_WORLD, group {1, 2, 3})   rank 0 gets MPI_COMM_NULL; persistent Send_init/Recv_init
//                                                        started twice 0 -> 2, Isend 2 -> 1, tag 13, 3 ints
//   id 7  Cart_create(id 5, dims {2})                    rank 1 -> 0, tag 14, 5 chars, received from MPI_ANY_SOURCE
// Usage: communicators_trace DIR PREFIX
#include <iostream>
#include <string>
#include <vector>

#include "dumpi_trace_builder.hpp"

namespace {

using amp::trace::test::BuiltStatus;
using amp::trace::test::ExpectedBytes;
using amp::trace::test::RankTrace;
namespace format = amp::trace;

constexpr std::uint16_t kWorld = format::dumpi_comm::kWorld, kNoComm = format::dumpi_comm::kNull;
constexpr std::uint16_t kDup = 4, kSplit = 5, kCreated = 6, kCart = 7;
constexpr std::uint16_t kGroup = format::dumpi_group::kFirstUser;
constexpr std::uint16_t kInt = format::dumpi_datatype::kInt, kDouble = format::dumpi_datatype::kDouble,
                        kChar = format::dumpi_datatype::kChar;

RankTrace& persistent(RankTrace& t, std::uint16_t function, std::int32_t count, std::uint16_t type, std::int32_t peer,
                      std::int32_t tag, std::uint16_t comm, std::int32_t request) {
  return t.call(function, ExpectedBytes().i32(count).u16(type).i32(peer).i32(tag).u16(comm).i32(request));
}

RankTrace rank_trace(int r) {
  RankTrace t;
  t.at(10).init();
  t.at(100).comm_dup(kWorld, kDup);
  t.at(200).comm_split(kWorld, r % 2, -r, kSplit);
  t.at(300).call(format::kCommCreate, ExpectedBytes().u16(kWorld).u16(kGroup).u16(r == 0 ? kNoComm : kCreated));
  t.at(400).cart_create(kSplit, {2}, kCart);

  // Comm_dup: world ranks.
  t.at(1000).irecv(1, kInt, (r + 3) % 4, 11, 10, kDup).isend(1, kInt, (r + 1) % 4, 11, 11, kDup);
  t.waitall({10, 11}, {BuiltStatus{4, (r + 3) % 4, 11}, BuiltStatus{}});

  // Comm_split: world 2 and 3 are rank 0 of their colour, world 0 and 1 rank 1.
  const int split_rank = r >= 2 ? 0 : 1;
  t.at(2000);
  if (split_rank == 0)
    t.send(2, kDouble, 1, 12, kSplit);
  else
    t.recv(2, kDouble, 0, 12, BuiltStatus{16, 0, 12}, kSplit);

  // Comm_create: members world 1, 2, 3 are its ranks 0, 1, 2.
  t.at(3000);
  if (r == 1) {
    persistent(t, format::kSendInit, 3, kInt, 2, 13, kCreated, 20);
    t.start(20).wait(20).start(20).wait(20);
    t.call(format::kRequestFree, ExpectedBytes().i32(20));
  } else if (r == 3) {
    persistent(t, format::kRecvInit, 3, kInt, 0, 13, kCreated, 21);
    t.isend(3, kInt, 1, 13, 22, kCreated);
    t.start(21).wait(21, BuiltStatus{12, 0, 13}).start(21).wait(21, BuiltStatus{12, 0, 13}).wait(22);
    t.call(format::kRequestFree, ExpectedBytes().i32(21));
  } else if (r == 2) {
    t.irecv(3, kInt, 2, 13, 23, kCreated).wait(23, BuiltStatus{12, 2, 13});
  }

  // Cart_create of the split: the same ranks as the split.
  t.at(4000);
  if (split_rank == 1)
    t.send(5, kChar, 0, 14, kCart);
  else
    t.recv(5, kChar, -1, 14, BuiltStatus{5, 1, 14}, kCart);

  t.at(5000).barrier(kWorld);
  t.at(6000).finalize();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: communicators_trace DIR PREFIX\n";
    return 2;
  }
  std::vector<RankTrace> ranks;
  for (int r = 0; r < 4; ++r) ranks.push_back(rank_trace(r));
  std::cout << amp::trace::test::write_trace(argv[1], argv[2], ranks) << "\n";
  return 0;
}
