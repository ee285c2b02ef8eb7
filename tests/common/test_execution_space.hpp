// SPDX-License-Identifier: BSD-3-Clause
// The execution space a back-end test executable runs its kernels on: amp_add_gtest_per_back_end
// (cmake/AmpTesting.cmake) builds its tests once per Kokkos back end, naming the space in
// AMP_TEST_EXECUTION_SPACE (Cabana's TEST_EXECSPACE). Test data lives in that space's memory; results
// are read back through HostSpace.
#pragma once

#include <Kokkos_Core.hpp>

#ifndef AMP_TEST_EXECUTION_SPACE
#error "a back-end test build (amp_add_gtest_per_back_end, tests/comm) defines AMP_TEST_EXECUTION_SPACE, its back end"
#endif

namespace amp::test {

using ExecutionSpace = AMP_TEST_EXECUTION_SPACE;
using MemorySpace = ExecutionSpace::memory_space;

}  // namespace amp::test
