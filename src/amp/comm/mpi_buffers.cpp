// SPDX-License-Identifier: BSD-3-Clause
// Where MPI's buffers can be (mpi_buffers.hpp): the host-build answer, a caller's word, or the MPI library's.
#include <amp/comm/mpi_buffers.hpp>

#include <amp/comm/memory_space.hpp>

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

namespace amp::comm {

namespace {

constexpr bool kHostMemory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

}  // namespace

MpiBuffers MpiBuffers::in_memory_space(const std::string& source) {
  return {false, (kHostMemory ? "host memory (" : "device memory (") + source + ")"};
}

MpiBuffers MpiBuffers::staged_through_host(const std::string& source) {
  return {true, "staged through host memory (" + source + ")"};
}

// Whether this MPI library says it can read and write the back end's device memory, and how it was asked.
MpiBuffers MpiBuffers::where_mpi_reaches() {
  if (kHostMemory) return {false, "host memory"};
#if defined(MPICH_VERSION) && (defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL))
#if defined(KOKKOS_ENABLE_CUDA)
  const int kind = MPIX_GPU_SUPPORT_CUDA;
#elif defined(KOKKOS_ENABLE_HIP)
  const int kind = MPIX_GPU_SUPPORT_HIP;
#else
  const int kind = MPIX_GPU_SUPPORT_ZE;
#endif
  int supported = 0;
  MPIX_GPU_query_support(kind, &supported);
  return {supported == 0, supported != 0
                              ? "device memory: MPICH is GPU-aware (MPIX_GPU_query_support)"
                              : "staged through host memory: MPICH is not GPU-aware (MPIX_GPU_query_support)"};
#elif defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT && defined(KOKKOS_ENABLE_CUDA)
  const bool supported = MPIX_Query_cuda_support() != 0;
  return {!supported,
          supported ? "device memory: Open MPI is CUDA-aware (MPIX_Query_cuda_support)"
                    : "staged through host memory: Open MPI is not CUDA-aware at run time (MPIX_Query_cuda_support)"};
#else
  return {true,
          "staged through host memory: this MPI library cannot be asked whether it is GPU-aware "
          "(AMP_MPI_BUFFERS=device says it is)"};
#endif
}

}  // namespace amp::comm
