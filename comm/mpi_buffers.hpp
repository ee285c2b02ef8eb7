// Where MPI reads and writes the exchange areas. In MemorySpace itself when MPI can reach it: always
// on a host build; on a device build when the MPI library is GPU-aware. Otherwise through host
// staging: every area has a copy in host memory that MPI uses, packed slots are copied to it before a
// batch is sent and received ones back after it completes, and nothing goes to MPI straight from a
// variable's storage (no direct messages; in-place transports are refused).
//
// How GPU-awareness is found (device builds only): AMP_MPI_BUFFERS=device or =host says it outright;
// otherwise MPICH is asked with MPIX_GPU_query_support for the back end's kind of device, and Open MPI,
// built with its CUDA extension, with MPIX_Query_cuda_support(); anything else, or a "no", stages.
// AMP_MPI_BUFFERS=host stages on a host build too, which is how the suite runs the staging path here.
#pragma once

#include <string>

namespace amp::comm {

class MpiBuffers {
 public:
  // Why AMP_MPI_BUFFERS cannot be used ("" when it is unset, empty, auto, device or host): one line
  // naming the variable and its valid values, for a program to refuse the run with before any exchange.
  static std::string setting_problem();
  // Decided once per process, at the first call (after MPI_Init; std::invalid_argument with
  // setting_problem() when AMP_MPI_BUFFERS is not valid).
  static bool staged();
  // One line for listings and results: where MPI's buffers are and why.
  static std::string description();
};

}  // namespace amp::comm
