// SPDX-License-Identifier: BSD-3-Clause
// The passive-target RMA window used by put, get, amo and gups.
#include <amp/miniapps/micro/passive_target_window.hpp>

#include <cstring>

namespace amp::micro {

PassiveTargetWindow::PassiveTargetWindow(std::size_t bytes, int displacement_unit, MPI_Comm comm)
    : comm_(comm), bytes_(bytes) {
  void* base = nullptr;
  MPI_Win_allocate(static_cast<MPI_Aint>(bytes), displacement_unit, MPI_INFO_NULL, comm, &base, &window_);
  base_ = static_cast<unsigned char*>(base);
  if (bytes > 0) std::memset(base_, 0, bytes);
  MPI_Win_lock_all(0, window_);
  synchronize_local_and_remote();
}

PassiveTargetWindow::~PassiveTargetWindow() {
  if (window_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
}

void PassiveTargetWindow::synchronize_local_and_remote() const {
  MPI_Win_sync(window_);
  MPI_Barrier(comm_);
  MPI_Win_sync(window_);
}

}  // namespace amp::micro
