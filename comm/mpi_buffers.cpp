// The staging decision (mpi_buffers.hpp): the host-build answer, the user's word, or the MPI library's.
#include "mpi_buffers.hpp"

#include "memory_space.hpp"

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <cstdlib>
#include <stdexcept>

namespace amp::comm {

namespace {

struct Decision {
  bool staged = false;
  std::string why;
};

constexpr bool kHostMemory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

// Whether this MPI library says it can read and write the back end's device memory, and how it was asked.
Decision ask_the_mpi_library() {
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
  return {supported == 0, supported != 0 ? "device memory: MPICH is GPU-aware (MPIX_GPU_query_support)"
                                         : "staged through host memory: MPICH is not GPU-aware (MPIX_GPU_query_support)"};
#elif defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT && defined(KOKKOS_ENABLE_CUDA)
  const bool supported = MPIX_Query_cuda_support() != 0;
  return {!supported, supported ? "device memory: Open MPI is CUDA-aware (MPIX_Query_cuda_support)"
                                : "staged through host memory: Open MPI is not CUDA-aware at run time (MPIX_Query_cuda_support)"};
#else
  return {true, "staged through host memory: this MPI library cannot be asked whether it is GPU-aware "
                "(AMP_MPI_BUFFERS=device says it is)"};
#endif
}

std::string user_word() {
  const char* set = std::getenv("AMP_MPI_BUFFERS");
  return set == nullptr ? "" : set;
}

Decision decide() {
  const std::string problem = MpiBuffers::setting_problem();
  if (!problem.empty()) throw std::invalid_argument(problem);
  const std::string word = user_word();
  if (word == "host") return {true, "staged through host memory (AMP_MPI_BUFFERS=host)"};
  if (word == "device")
    return {false, kHostMemory ? "host memory (AMP_MPI_BUFFERS=device)" : "device memory (AMP_MPI_BUFFERS=device)"};
  if (kHostMemory) return {false, "host memory"};
  return ask_the_mpi_library();
}

const Decision& decision() {
  static const Decision made = decide();
  return made;
}

}  // namespace

std::string MpiBuffers::setting_problem() {
  const std::string word = user_word();
  if (word.empty() || word == "auto" || word == "device" || word == "host") return "";
  return "AMP_MPI_BUFFERS must be auto, device or host (got '" + word + "')";
}

bool MpiBuffers::staged() { return decision().staged; }

std::string MpiBuffers::description() { return decision().why; }

}  // namespace amp::comm
