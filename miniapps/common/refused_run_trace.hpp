// The trace of a real run refused at start-up, removed: the tracing library starts at MPI_Init, before
// the configuration is read, so a refused run (exit 2) would otherwise leave a complete trace of its
// set-up. Each rank finds its own .bin among its open files, rank 0 derives the .meta from it.
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
  // open and writes its tail there at MPI_Finalize, into no file).
  void remove_rank_files(int rank, MPI_Comm comm);
  // After MPI_Finalize, on rank 0 (which appended its last lines to the .meta there): the .meta and
  // the folders the library created, if empty.
  void remove_run_files() const;

 private:
  std::string directory_;
  std::vector<std::string> missing_folders_;  // innermost first
  std::string meta_path_;                     // rank 0, once its .bin was found
};

}  // namespace amp
