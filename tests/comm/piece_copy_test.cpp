// SPDX-License-Identifier: BSD-3-Clause
// Pack and unpack's piece copy: every kind of piece (strided rows, 2-D blocks, rows too short for a row
// of their own, rows longer than one copy row, index lists, with and without a run of consecutive elements)
// lands where its element list says, both ways, for a sub-range of pieces too; and only the scattered
// elements go through the index list. Built once per back end (amp_add_gtest_per_back_end): the copy runs
// on amp::test::ExecutionSpace.
#include "../common/test_execution_space.hpp"

#include <amp/comm/impl/piece_copy.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using amp::comm::Piece;
using PieceCopy = amp::comm::BasicPieceCopy<amp::test::ExecutionSpace>;

// A list with a run long enough for a row between two scattered elements (amp-ghost's yz ghost rows).
Piece list_with_a_run() {
  std::vector<std::int64_t> elements{950};
  for (std::int64_t e = 600; e < 600 + PieceCopy::kShortestRow; ++e) elements.push_back(e);
  elements.push_back(960);
  return Piece::index_list(elements);
}

std::vector<Piece> every_kind() {
  return {Piece::strided(3, 9, 5),                               // one strided row
          Piece::block(100, 10, 1, 3, 40),                       // three contiguous rows
          Piece::strided(7, 4, 2),                               // too short: listed
          Piece::index_list({900, 2, 77}),                       // a list
          list_with_a_run(),                                     // listed, a row, listed
          Piece::strided(1000, PieceCopy::kLongestRow + 5, 1)};  // cut into two rows
}

std::vector<std::int64_t> elements_of(const std::vector<Piece>& pieces, std::size_t begin, std::size_t end) {
  std::vector<std::int64_t> out;
  for (std::size_t p = begin; p < end; ++p) pieces[p].append_elements(out);
  return out;
}

TEST(PieceCopy, RowsForStridedPiecesAListOnlyForScatteredElements) {
  const PieceCopy copy(every_kind());
  EXPECT_EQ(copy.rows(), 1 + 3 + 1 + 2);
  EXPECT_EQ(copy.listed_elements(), 4 + 3 + 2);
}

TEST(PieceCopy, GatherAndScatterFollowTheElementLists) {
  const std::vector<Piece> pieces = every_kind();
  const PieceCopy copy(pieces);
  const std::vector<std::int64_t> all = elements_of(pieces, 0, pieces.size());
  const std::int64_t storage_size = 1000 + PieceCopy::kLongestRow + 5;
  // In the test space's memory, read and written on the host through mirrors only.
  Kokkos::View<double*, amp::test::MemorySpace> storage("storage", storage_size), slot("slot", all.size());
  const auto storage_host = Kokkos::create_mirror_view(storage);
  for (std::int64_t e = 0; e < storage_size; ++e) storage_host(e) = 0.5 * static_cast<double>(e);
  Kokkos::deep_copy(storage, storage_host);
  const amp::test::ExecutionSpace space;
  for (int begin : {0, 1, 3, 4, 5}) {
    Kokkos::deep_copy(slot, -1.0);
    // the slot positions of pieces [begin, end) are those after the earlier pieces' elements
    const std::size_t skipped = elements_of(pieces, 0, begin).size();
    copy.gather(storage, slot, begin, static_cast<int>(pieces.size()), space);
    const auto slot_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slot);
    for (std::size_t s = 0; s < all.size(); ++s)
      EXPECT_EQ(slot_host(s), s < skipped ? -1.0 : 0.5 * static_cast<double>(all[s])) << "slot " << s;
  }
  Kokkos::View<double*, amp::test::MemorySpace> target("target", storage_size);
  const auto slot_host = Kokkos::create_mirror_view(slot);
  for (std::size_t s = 0; s < all.size(); ++s) slot_host(s) = static_cast<double>(s + 1);
  Kokkos::deep_copy(slot, slot_host);
  copy.scatter(slot, target, 0, static_cast<int>(pieces.size()), space);
  const auto target_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), target);
  std::vector<double> expected(storage_size, 0.0);
  for (std::size_t s = 0; s < all.size(); ++s) expected[all[s]] = static_cast<double>(s + 1);
  for (std::int64_t e = 0; e < storage_size; ++e) EXPECT_EQ(target_host(e), expected[e]) << "element " << e;
}

}  // namespace
