// SPDX-License-Identifier: BSD-3-Clause
// Duplicating and freeing the comm layer's communicator.
#include <amp/comm/communicator.hpp>

namespace amp::comm {

int tag_ub_of(MPI_Comm comm) {
  int* tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &tag_ub, &found);
  return found && tag_ub != nullptr ? *tag_ub : 32767;
}

// MPI_TAG_UB is read from the given communicator: a duplicate has the same value, and an MPI that
// stands in for absent ranks (trace/writer/synthetic_mpi.hpp) answers attribute queries for real handles only.
Communicator::Communicator(MPI_Comm given) : tag_ub_(tag_ub_of(given)) {
  MPI_Comm_dup(given, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Communicator::~Communicator() {
  if (comm_ != MPI_COMM_NULL && !mpi_finalized()) MPI_Comm_free(&comm_);
}

}  // namespace amp::comm
