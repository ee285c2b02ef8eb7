// SPDX-License-Identifier: BSD-3-Clause
// The trace of a real run refused at start-up, removed: the tracing library starts at MPI_Init, before
// the configuration is read, so a refused run (exit 2) would otherwise leave a complete trace of its
// set-up. Each rank finds its own .bin among its open files, rank 0 derives the .meta from it. All of it
// is gone before MPI_Finalize: after it a launcher may end rank 0 as soon as another rank has exited
// with the refusal's status (Open MPI does), and a removal left for then was lost 3 times in 30.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace amp {

class RefusedRunTrace {
 public:
  // Before MPI_Init: remembers which folders of `directory` do not exist yet (the library makes them).
  explicit RefusedRunTrace(const std::string& directory);

  // Collective, before MPI_Finalize: every rank unlinks its own .bin (the library still holds it
  // open and writes its tail there at MPI_Finalize, into no file) and tells the library to add nothing
  // to the .meta; then rank 0 removes the .meta and the folders the library created, if empty.
  void remove(int rank, MPI_Comm comm) const;

 private:
  std::string directory_;
  std::vector<std::string> missing_folders_;  // innermost first
};

}  // namespace amp
