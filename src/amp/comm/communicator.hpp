// SPDX-License-Identifier: BSD-3-Clause
// The comm layer's own communicator: a duplicate of the one the application gives it, so the layer's
// tags never meet the application's traffic. RAII: made once per exchange state, freed with it.
#pragma once

#include <mpi.h>

namespace amp::comm {

class Communicator {
 public:
  // Collective over `given`: MPI_Comm_dup, then this rank, the size and MPI_TAG_UB of the duplicate.
  explicit Communicator(MPI_Comm given);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // The communicator's MPI_TAG_UB (MPI's minimum, 32767, should the attribute be missing).
  int tag_ub() const { return tag_ub_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  int tag_ub_ = 32767;
};

// Whether MPI_Finalize has run: destructors free their MPI objects only before it.
inline bool mpi_finalized() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

// A communicator's MPI_TAG_UB (32767 should the attribute be missing).
int tag_ub_of(MPI_Comm comm);

}  // namespace amp::comm
