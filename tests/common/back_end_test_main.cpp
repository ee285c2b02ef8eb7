// SPDX-License-Identifier: BSD-3-Clause
// GoogleTest main of a back-end test executable (amp_add_gtest_per_back_end): Kokkos is initialised
// around the test run, and the run fails if an amp:: kernel ran anywhere but amp::test::ExecutionSpace,
// or if none ran at all (kernel_space_guard.hpp).
#include "kernel_space_guard.hpp"

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const amp::test::KernelSpaceGuard guard;
  std::printf("kernels run on %s\n", amp::test::ExecutionSpace::name());
  const int failed = RUN_ALL_TESTS();
  const bool tests_ran = ::testing::UnitTest::GetInstance()->test_to_run_count() > 0;
  return guard.report(tests_ran) ? failed : 1;
}
