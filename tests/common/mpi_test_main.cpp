// SPDX-License-Identifier: BSD-3-Clause
// GoogleTest main for MPI tests run through mpiexec: MPI and Kokkos around the run, output from rank 0
// only, and the verdict agreed over all ranks so every rank exits with the same code. In a back-end
// build (AMP_TEST_EXECUTION_SPACE set) the run also fails where an amp:: kernel ran on another space.
#ifdef AMP_TEST_EXECUTION_SPACE
#include "kernel_space_guard.hpp"
#endif

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
#ifdef AMP_TEST_EXECUTION_SPACE
    const amp::test::KernelSpaceGuard guard;
    failed = RUN_ALL_TESTS() != 0;
    failed = !guard.report(::testing::UnitTest::GetInstance()->test_to_run_count() > 0) || failed;
#else
    failed = RUN_ALL_TESTS() != 0;
#endif
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}
