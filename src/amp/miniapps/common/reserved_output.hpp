// SPDX-License-Identifier: BSD-3-Clause
// An output file written at the end of a run (JSON results, micro's CSV), reserved at start-up so that
// nothing is lost or overwritten: the name must not exist, `NAME.partial` is created with O_EXCL (two
// runs given one name: the second is refused) and proven writable, and at the end the text goes to
// the .partial, which is renamed to NAME without replacing anything (renameat2 RENAME_NOREPLACE, or a
// hard link where the filesystem lacks it).
#pragma once

#include <mpi.h>

#include <string>

namespace amp {

class ReservedOutput {
 public:
  // No file (an empty name): every call does nothing.
  ReservedOutput() = default;
  // On the writer (rank 0): checks the name and reserves NAME.partial (an empty name: nothing). With a
  // communicator `comm` (a real run: every rank of it calls this), rank 0's verdict is sent to every
  // rank; MPI_COMM_NULL: this rank alone. Throws InputError on every rank (exit 2) naming the problem;
  // nothing is created then.
  ReservedOutput(std::string path, const char* what, bool writer, MPI_Comm comm);
  // Removes the .partial this run created, unless the file was written.
  ~ReservedOutput();
  ReservedOutput(ReservedOutput&& other) noexcept;
  ReservedOutput& operator=(ReservedOutput&& other) noexcept;
  ReservedOutput(const ReservedOutput&) = delete;
  ReservedOutput& operator=(const ReservedOutput&) = delete;

  const std::string& path() const { return path_; }

  // Writes `text` on the writer. Returns "" when written, else one line saying why (the .partial is
  // removed). With a communicator, every rank of it returns the writer's answer.
  std::string write(const std::string& text);

 private:
  void release();

  std::string path_;
  std::string what_;
  bool writer_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;  // the ranks that share the verdicts; null: this rank alone
  bool reserved_ = false;          // this run created path_.partial and it is still there
};

}  // namespace amp
