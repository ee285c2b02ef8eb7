// SPDX-License-Identifier: BSD-3-Clause
// RAII for an MPI RMA window in a passive-target epoch: MPI_Win_allocate + MPI_Win_lock_all on
// construction, MPI_Win_unlock_all + MPI_Win_free on destruction (collective both ways).
#pragma once

#include <mpi.h>

#include <cstddef>

namespace amp::micro {

class PassiveTargetWindow {
 public:
  // `bytes` of local window memory, zeroed; displacements count in units of `displacement_unit` bytes.
  PassiveTargetWindow(std::size_t bytes, int displacement_unit, MPI_Comm comm);
  ~PassiveTargetWindow();
  PassiveTargetWindow(const PassiveTargetWindow&) = delete;
  PassiveTargetWindow& operator=(const PassiveTargetWindow&) = delete;

  MPI_Win handle() const { return window_; }
  unsigned char* local_bytes() const { return base_; }
  std::size_t local_size() const { return bytes_; }

  // Makes local stores visible to remote accesses and remote updates visible to local loads:
  // MPI_Win_sync, a barrier, MPI_Win_sync (collective).
  void synchronize_local_and_remote() const;

 private:
  MPI_Win window_ = MPI_WIN_NULL;
  MPI_Comm comm_;
  unsigned char* base_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace amp::micro
