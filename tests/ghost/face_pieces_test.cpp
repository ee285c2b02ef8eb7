// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's face geometry for every stencil: exact pieces of each face and phase; the receive pieces
// of all faces cover every ghost cell the stencil reads exactly once; each send piece mirrors its
// receive piece one layer inside; received yz ghosts set aside for a sweep in place go where the sweep
// looks for them.
#include <amp/miniapps/ghost/face_pieces.hpp>

#include <amp/kernels/stencil.hpp>
#include <amp/kernels/yz_ghost_sides.hpp>

#include <gtest/gtest.h>

#include <array>
#include <map>

namespace {

using amp::comm::Piece;
using amp::ghost::face_phase;
using amp::ghost::face_pieces;
using amp::kernels::BlockExtent;
using amp::kernels::Stencil;

const BlockExtent kBlock{4, 3, 5};

TEST(FacePieces, ThreeD7PtFacesAndSinglePhase) {
  const BlockExtent& b = kBlock;
  const auto x_low_send = face_pieces(b, Stencil::ThreeD7Pt, 0, 0, false);
  ASSERT_EQ(x_low_send.size(), 5u);  // one strided row of ny values per z
  EXPECT_EQ(x_low_send[0].offset, b.index(1, 1, 1));
  EXPECT_EQ(x_low_send[0].count, 3);
  EXPECT_EQ(x_low_send[0].stride, 6);
  const auto x_high_recv = face_pieces(b, Stencil::ThreeD7Pt, 0, 1, true);
  EXPECT_EQ(x_high_recv[4].offset, b.index(5, 1, 5));
  const auto y_low_send = face_pieces(b, Stencil::ThreeD7Pt, 1, 0, false);
  ASSERT_EQ(y_low_send.size(), 5u);  // one contiguous x row per z
  EXPECT_EQ(y_low_send[2].offset, b.index(1, 1, 3));
  EXPECT_EQ(y_low_send[2].count, 4);
  EXPECT_TRUE(y_low_send[2].contiguous());
  const auto z_high_send = face_pieces(b, Stencil::ThreeD7Pt, 2, 1, false);
  ASSERT_EQ(z_high_send.size(), 1u);  // the xy plane, one contiguous piece
  EXPECT_EQ(z_high_send[0].offset, b.index(0, 1, 5));
  EXPECT_EQ(z_high_send[0].count, 6 * 3);
  EXPECT_TRUE(z_high_send[0].contiguous());
  for (int axis = 0; axis < 3; ++axis) EXPECT_EQ(face_phase(Stencil::ThreeD7Pt, axis), 0);
}

TEST(FacePieces, ThreeD27PtPhasesCarryEdgesAndCorners) {
  const BlockExtent& b = kBlock;
  EXPECT_EQ(face_phase(Stencil::ThreeD27Pt, 0), 0);
  EXPECT_EQ(face_phase(Stencil::ThreeD27Pt, 1), 1);
  EXPECT_EQ(face_phase(Stencil::ThreeD27Pt, 2), 2);
  EXPECT_EQ(face_phase(Stencil::TwoD9Pt, 1), 1);
  const auto y_send = face_pieces(b, Stencil::ThreeD27Pt, 1, 1, false);
  EXPECT_EQ(y_send[0].offset, b.index(0, 3, 1));  // includes the x ghosts of phase 0
  EXPECT_EQ(y_send[0].count, 6);
  const auto z_send = face_pieces(b, Stencil::ThreeD27Pt, 2, 0, false);
  ASSERT_EQ(z_send.size(), 1u);
  EXPECT_EQ(z_send[0].offset, b.index(0, 0, 1));  // includes x and y ghosts
  EXPECT_EQ(z_send[0].count, 6 * 5);
}

class FaceCoverage : public ::testing::TestWithParam<Stencil> {};

TEST_P(FaceCoverage, ReceivePiecesCoverEveryGhostTheStencilReadsOnceAndSendsMirrorThem) {
  const Stencil s = GetParam();
  const BlockExtent& b = kBlock;
  const int axes = amp::kernels::stencil_is_3d(s) ? 3 : 2;
  std::map<std::int64_t, int> received;
  for (int axis = 0; axis < axes; ++axis)
    for (int side = 0; side < 2; ++side) {
      const auto recv = face_pieces(b, s, axis, side, true);
      const auto send = face_pieces(b, s, axis, side, false);
      ASSERT_EQ(recv.size(), send.size());
      const std::int64_t step[3] = {1, b.nx + 2, std::int64_t{b.nx + 2} * (b.ny + 2)};
      for (std::size_t p = 0; p < recv.size(); ++p) {
        std::vector<std::int64_t> r, t;
        recv[p].append_elements(r);
        send[p].append_elements(t);
        ASSERT_EQ(r.size(), t.size());
        for (std::size_t n = 0; n < r.size(); ++n) {
          EXPECT_EQ(t[n], r[n] + (side == 0 ? step[axis] : -step[axis]));
          ++received[r[n]];
        }
      }
    }
  for (const auto& [element, times] : received) EXPECT_EQ(times, 1) << "element " << element;
  // Every ghost cell a stencil point reads is received.
  for (int k = 1; k <= b.nz; ++k)
    for (int j = 1; j <= b.ny; ++j)
      for (int i = 1; i <= b.nx; ++i)
        for (int dk = -1; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              const int nonzero = (di != 0) + (dj != 0) + (dk != 0);
              const bool reads = s == Stencil::ThreeD27Pt || (s == Stencil::ThreeD7Pt && nonzero <= 1) ||
                                 (s == Stencil::TwoD9Pt && dk == 0) ||
                                 (s == Stencil::TwoD5Pt && dk == 0 && nonzero <= 1);
              const int c[3] = {i + di, j + dj, k + dk};
              const bool ghost =
                  c[0] == 0 || c[0] == b.nx + 1 || c[1] == 0 || c[1] == b.ny + 1 || c[2] == 0 || c[2] == b.nz + 1;
              if (reads && ghost) {
                EXPECT_EQ(received.count(b.index(c[0], c[1], c[2])), 1u) << c[0] << c[1] << c[2];
              }
            }
}

// face_link names the plan's link of each face, for every pattern of present and missing neighbours:
// its peer is that face's neighbour and its send pieces are that face's.
TEST(FacePieces, FaceLinkIsThePlansLinkOfThatFace) {
  for (int present = 0; present < 64; ++present) {
    amp::ghost::Decomposition d;
    d.block = kBlock;
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side)
        d.neighbour[axis][side] = (present >> (2 * axis + side)) & 1 ? 10 * axis + side + 1 : -1;
    // ghost_exchange_plan validates nothing about ranks: the peers need only be distinct here.
    const auto plan = amp::ghost::ghost_exchange_plan(d, Stencil::ThreeD7Pt, 1);
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side) {
        const int l = amp::ghost::face_link(d, axis, side);
        if (d.neighbour[axis][side] < 0) {
          EXPECT_EQ(l, -1);
          continue;
        }
        ASSERT_GE(l, 0);
        ASSERT_LT(l, static_cast<int>(plan.links.size()));
        EXPECT_EQ(plan.links[l].peer, d.neighbour[axis][side]) << "neighbours " << present;
        EXPECT_EQ(plan.links[l].send.front().offset,
                  face_pieces(kBlock, Stencil::ThreeD7Pt, axis, side, false).front().offset);
      }
  }
}

// With yz ghosts set aside (a sweep in place), an x face's receive pieces have the sizes of the grid's
// (the peer's send pieces), and each ghost goes to its side array's element where the lines aside hold it,
// else to its grid cell; rows wholly aside are one contiguous run. amp-ghost sets aside every line for
// 3D7PT, and for 3D27PT all but those next to a y or z neighbour (the y and z phases send them on).
TEST(FacePieces, YzGhostsSetAsideGoToTheSideArraysButThoseSentOn) {
  namespace k = amp::kernels;
  amp::ghost::Decomposition d;
  d.block = BlockExtent{64, 64, 64};
  d.neighbour[0][0] = 1;
  d.neighbour[0][1] = 2;
  d.neighbour[1][1] = 3;  // y high
  d.neighbour[2][0] = 4;  // z low
  const auto& b = d.block;
  if (!k::sweeps_in_place(Stencil::ThreeD27Pt, b)) GTEST_SKIP() << "not a host back end";
  const k::YzLinesAside all = amp::ghost::yz_lines_aside(d, Stencil::ThreeD7Pt);
  const k::YzLinesAside but_sent_on = amp::ghost::yz_lines_aside(d, Stencil::ThreeD27Pt);
  EXPECT_EQ((std::array<int, 4>{all.j_first, all.j_last, all.k_first, all.k_last}),
            (std::array<int, 4>{1, b.ny, 1, b.nz}));
  EXPECT_EQ((std::array<int, 4>{but_sent_on.j_first, but_sent_on.j_last, but_sent_on.k_first, but_sent_on.k_last}),
            (std::array<int, 4>{1, b.ny - 1, 2, b.nz}));
  for (const Stencil s : {Stencil::ThreeD7Pt, Stencil::ThreeD27Pt})
    for (int side = 0; side < 2; ++side) {
      const k::YzLinesAside& lines = s == Stencil::ThreeD7Pt ? all : but_sent_on;
      const auto grid = face_pieces(b, s, 0, side, true);
      const auto aside = face_pieces(b, s, 0, side, true, lines);
      ASSERT_EQ(aside.size(), grid.size());
      for (int kz = 1; kz <= b.nz; ++kz) {
        std::vector<std::int64_t> elements;
        aside[kz - 1].append_elements(elements);
        ASSERT_EQ(static_cast<int>(elements.size()), b.ny);
        for (int j = 1; j <= b.ny; ++j)
          EXPECT_EQ(elements[j - 1], lines.holds(j, kz)
                                         ? k::yz_ghost_side_offset(b, side) + k::yz_face_element(j, kz, b.ny)
                                         : b.index(side == 0 ? 0 : b.nx + 1, j, kz))
              << k::stencil_name(s) << " side " << side << " line " << j << "," << kz;
        EXPECT_EQ(aside[kz - 1].contiguous(), s == Stencil::ThreeD7Pt);
      }
    }
  // No sweep in place, nothing set aside.
  d.block = BlockExtent{16, 16, 16};
  EXPECT_TRUE(amp::ghost::yz_lines_aside(d, Stencil::ThreeD27Pt).empty());
}

INSTANTIATE_TEST_SUITE_P(AllStencils, FaceCoverage,
                         ::testing::Values(Stencil::TwoD5Pt, Stencil::TwoD9Pt, Stencil::ThreeD7Pt, Stencil::ThreeD27Pt),
                         [](const auto& info) { return amp::kernels::stencil_name(info.param); });

}  // namespace
