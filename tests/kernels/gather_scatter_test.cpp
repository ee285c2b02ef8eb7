// SPDX-License-Identifier: BSD-3-Clause
// gather / scatter through an index list move exactly the listed elements, in order, over a range.
#include "../common/test_execution_space.hpp"

#include <amp/kernels/gather_scatter.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(GatherScatter, GatherReadsListedElementsOfTheRangeInOrder) {
  const std::vector<std::int64_t> index_host = {9, 0, 4, 4, 13, 2, 7};
  Kokkos::View<std::int64_t*, amp::test::MemorySpace> index("index", index_host.size());
  auto index_mirror = Kokkos::create_mirror_view(index);
  for (std::size_t i = 0; i < index_host.size(); ++i) index_mirror(i) = index_host[i];
  Kokkos::deep_copy(index, index_mirror);
  Kokkos::View<double*, amp::test::MemorySpace> source("source", 16), buffer("buffer", 5);
  auto source_mirror = Kokkos::create_mirror_view(source);
  for (int i = 0; i < 16; ++i) source_mirror(i) = 100.0 + i;
  Kokkos::deep_copy(source, source_mirror);
  amp::kernels::gather<amp::test::ExecutionSpace>(source, amp::kernels::IndexList<amp::test::ExecutionSpace>(index), 2,
                                                  7, buffer);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buffer);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(b(i), 100.0 + index_host[2 + i]);
}

TEST(GatherScatter, ScatterWritesOnlyListedElements) {
  const std::vector<std::int64_t> index_host = {3, 8, 1, 10};
  Kokkos::View<std::int64_t*, amp::test::MemorySpace> index("index", index_host.size());
  auto index_mirror = Kokkos::create_mirror_view(index);
  for (std::size_t i = 0; i < index_host.size(); ++i) index_mirror(i) = index_host[i];
  Kokkos::deep_copy(index, index_mirror);
  Kokkos::View<double*, amp::test::MemorySpace> target("target", 12), buffer("buffer", 4);
  Kokkos::deep_copy(target, -1.0);
  auto buffer_mirror = Kokkos::create_mirror_view(buffer);
  for (int i = 0; i < 4; ++i) buffer_mirror(i) = 10.0 * (i + 1);
  Kokkos::deep_copy(buffer, buffer_mirror);
  amp::kernels::scatter<amp::test::ExecutionSpace>(buffer, amp::kernels::IndexList<amp::test::ExecutionSpace>(index), 0,
                                                   4, target);
  auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), target);
  for (int i = 0; i < 12; ++i) {
    double expected = -1.0;
    for (int n = 0; n < 4; ++n)
      if (index_host[n] == i) expected = 10.0 * (n + 1);
    EXPECT_EQ(t(i), expected) << "element " << i;
  }
}

}  // namespace
