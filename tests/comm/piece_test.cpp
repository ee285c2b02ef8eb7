// SPDX-License-Identifier: BSD-3-Clause
// Piece geometry: element lists of strided, 2-D and index-list pieces, and which are contiguous.
#include <amp/comm/piece.hpp>

#include <gtest/gtest.h>

namespace {

using amp::comm::Piece;

std::vector<std::int64_t> elements(const Piece& p) {
  std::vector<std::int64_t> out;
  p.append_elements(out);
  return out;
}

TEST(Piece, StridedBlockAndIndexListElements) {
  EXPECT_EQ(elements(Piece::strided(3, 4, 5)), (std::vector<std::int64_t>{3, 8, 13, 18}));
  EXPECT_EQ(elements(Piece::block(1, 2, 1, 3, 10)), (std::vector<std::int64_t>{1, 2, 11, 12, 21, 22}));
  EXPECT_EQ(elements(Piece::index_list({7, 2, 9})), (std::vector<std::int64_t>{7, 2, 9}));
  EXPECT_EQ(Piece::block(1, 2, 1, 3, 10).size(), 6);
}

TEST(Piece, ContiguousOnlyWhenOneRunOfAddresses) {
  EXPECT_TRUE(Piece::strided(5, 10, 1).contiguous());
  EXPECT_TRUE(Piece::strided(5, 1, 7).contiguous());
  EXPECT_FALSE(Piece::strided(5, 10, 2).contiguous());
  EXPECT_TRUE(Piece::block(0, 4, 1, 3, 4).contiguous());
  EXPECT_FALSE(Piece::block(0, 4, 1, 3, 6).contiguous());
  EXPECT_TRUE(Piece::index_list({4, 5, 6}).contiguous());
  EXPECT_FALSE(Piece::index_list({4, 6, 5}).contiguous());
  EXPECT_EQ(Piece::index_list({4, 5, 6}).first(), 4);
}

}  // namespace
