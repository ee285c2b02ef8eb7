// An output file written at the end of a run (JSON results, micro's CSV), reserved at start-up so that
// nothing is lost or overwritten: the name must not exist, `NAME.partial` is created with O_EXCL (two
// runs given one name: the second is refused) and proven writable, and at the end the text goes to
// the .partial, which is renamed to NAME without replacing anything (renameat2 RENAME_NOREPLACE, or a
// hard link where the filesystem lacks it).
#pragma once

#include <string>

namespace amp {

class ReservedOutput {
 public:
  // No file (an empty name): every call does nothing.
  ReservedOutput() = default;
  // On the writer (rank 0): checks the name and reserves NAME.partial (an empty name: nothing). With `collective` (a real
  // run: every rank of MPI_COMM_WORLD calls it), rank 0's verdict is sent to every rank. Throws
  // InputError on every rank (exit 2) naming the problem; nothing is created then.
  ReservedOutput(std::string path, const char* what, bool writer, bool collective);
  // Removes the .partial this run created, unless the file was written.
  ~ReservedOutput();
  ReservedOutput(ReservedOutput&& other) noexcept;
  ReservedOutput& operator=(ReservedOutput&& other) noexcept;
  ReservedOutput(const ReservedOutput&) = delete;
  ReservedOutput& operator=(const ReservedOutput&) = delete;

  const std::string& path() const { return path_; }

  // Writes `text` on the writer. Returns "" when written, else one line saying why (the .partial is
  // removed). With `collective`, every rank returns the writer's answer.
  std::string write(const std::string& text);

 private:
  void release();

  std::string path_;
  std::string what_;
  bool writer_ = false;
  bool collective_ = false;
  bool reserved_ = false;  // this run created path_.partial and it is still there
};

}  // namespace amp
