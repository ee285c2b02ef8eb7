// SPDX-License-Identifier: BSD-3-Clause
// GoogleTest main for serial tests of Kokkos code: Kokkos is initialised around the test run.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
