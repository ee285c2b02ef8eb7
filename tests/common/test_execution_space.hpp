// The execution space a kernel test executable runs its kernels on: tests/kernels/CMakeLists.txt builds
// the kernel tests once per Kokkos back end, naming the space in AMP_TEST_EXECUTION_SPACE (Cabana's
// TEST_EXECSPACE). Test data lives in that space's memory; results are read back through HostSpace.
#pragma once

#include <Kokkos_Core.hpp>

#ifndef AMP_TEST_EXECUTION_SPACE
#error "tests/kernels/CMakeLists.txt defines AMP_TEST_EXECUTION_SPACE, the back end this test executable runs on"
#endif

namespace amp::test {

using ExecutionSpace = AMP_TEST_EXECUTION_SPACE;
using MemorySpace = ExecutionSpace::memory_space;

}  // namespace amp::test
