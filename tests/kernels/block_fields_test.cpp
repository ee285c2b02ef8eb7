// SPDX-License-Identifier: BSD-3-Clause
// Initial values and digests depend on global cell indices only: two half blocks reproduce the whole
// block's values, and their digests add up to the whole block's digest.
#include "../common/test_execution_space.hpp"

#include <amp/kernels/block_fields.hpp>

#include <gtest/gtest.h>

namespace {

using amp::kernels::BlockExtent;
using amp::kernels::GlobalPlacement;

TEST(BlockFields, RandomFillAndDigestAreIndependentOfTheDecomposition) {
  const BlockExtent whole{6, 5, 3}, half{3, 5, 3};
  GlobalPlacement whole_place, left, right;
  for (auto* p : {&whole_place, &left, &right}) {
    p->size[0] = 6;
    p->size[1] = 5;
    p->size[2] = 3;
  }
  right.offset[0] = 3;
  amp::kernels::Grid<amp::test::MemorySpace> w("w", 8, 7, 5), l("l", 5, 7, 5), r("r", 5, 7, 5);
  amp::kernels::fill_random<amp::test::ExecutionSpace>(w, whole, whole_place, 42, 2);
  amp::kernels::fill_random<amp::test::ExecutionSpace>(l, half, left, 42, 2);
  amp::kernels::fill_random<amp::test::ExecutionSpace>(r, half, right, 42, 2);
  auto wh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w);
  auto lh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), l);
  auto rh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  for (int k = 1; k <= 3; ++k)
    for (int j = 1; j <= 5; ++j)
      for (int i = 1; i <= 3; ++i) {
        EXPECT_EQ(wh(i, j, k), lh(i, j, k));
        EXPECT_EQ(wh(i + 3, j, k), rh(i, j, k));
        EXPECT_GE(wh(i, j, k), 0.0);
        EXPECT_LT(wh(i, j, k), 1.0);
      }
  EXPECT_EQ(wh(0, 1, 1), 0.0);  // ghosts are zero
  const auto dw = amp::kernels::interior_digest<amp::test::ExecutionSpace>(w, whole, whole_place, 2);
  const auto dl = amp::kernels::interior_digest<amp::test::ExecutionSpace>(l, half, left, 2);
  const auto dr = amp::kernels::interior_digest<amp::test::ExecutionSpace>(r, half, right, 2);
  EXPECT_EQ(dw, dl + dr);
  EXPECT_NE(dw, amp::kernels::interior_digest<amp::test::ExecutionSpace>(w, whole, whole_place,
                                                                         3));  // the variable is part of it
  EXPECT_NEAR(amp::kernels::interior_sum<amp::test::ExecutionSpace>(w, whole),
              amp::kernels::interior_sum<amp::test::ExecutionSpace>(l, half) +
                  amp::kernels::interior_sum<amp::test::ExecutionSpace>(r, half),
              1e-12);
}

TEST(BlockFields, DigestChangesWithOneBitOfOneValue) {
  const BlockExtent e{4, 4, 4};
  GlobalPlacement p;
  p.size[0] = p.size[1] = p.size[2] = 4;
  amp::kernels::Grid<amp::test::MemorySpace> g("g", 6, 6, 6);
  amp::kernels::fill_random<amp::test::ExecutionSpace>(g, e, p, 7, 0);
  const auto before = amp::kernels::interior_digest<amp::test::ExecutionSpace>(g, e, p, 0);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g);
  h(2, 3, 1) = std::nextafter(h(2, 3, 1), 2.0);
  Kokkos::deep_copy(g, h);
  EXPECT_NE(before, amp::kernels::interior_digest<amp::test::ExecutionSpace>(g, e, p, 0));
}

}  // namespace
