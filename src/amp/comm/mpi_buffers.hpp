// SPDX-License-Identifier: BSD-3-Clause
// Where MPI reads and writes the exchange areas, one value of an exchange context (exchange_context.hpp),
// decided by the caller. In MemorySpace itself when MPI can reach it: always on a host build; on a device
// build when the MPI library is GPU-aware. Otherwise through host staging: every area has a copy in host
// memory that MPI uses, packed slots are copied to it before a batch is sent and received ones back after
// it completes, and nothing goes to MPI straight from a variable's storage (no direct messages; in-place
// transports do not fit: combination.hpp).
//
// where_mpi_reaches() is the answer without a user's word: host memory on a host build; on a device
// build MPICH is asked with MPIX_GPU_query_support for the back end's kind of device, and Open MPI,
// built with its CUDA extension, with MPIX_Query_cuda_support(); anything else, or a "no", stages.
// The proxies take the user's word from AMP_MPI_BUFFERS (miniapps/common/mpi_buffers_setting.hpp).
#pragma once

#include <string>

namespace amp::comm {

class MpiBuffers {
 public:
  // MPI works on MemorySpace itself; `source` says who decided it ("AMP_MPI_BUFFERS=device").
  static MpiBuffers in_memory_space(const std::string& source);
  // MPI works on host copies of the areas; `source` says who decided it.
  static MpiBuffers staged_through_host(const std::string& source);
  // What this build and its MPI library allow (after MPI_Init: a device build asks the library).
  static MpiBuffers where_mpi_reaches();

  bool staged() const { return staged_; }
  // One line for listings and results: where MPI's buffers are and why.
  const std::string& description() const { return description_; }

 private:
  MpiBuffers(bool staged, std::string description) : staged_(staged), description_(std::move(description)) {}

  bool staged_;
  std::string description_;
};

}  // namespace amp::comm
