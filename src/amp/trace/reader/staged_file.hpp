// SPDX-License-Identifier: BSD-3-Clause
// An output file that never shows a partial state under its name: the bytes go to NAME.partial
// (created with O_EXCL, beside NAME), are fsync'ed and closed, and only then renamed to NAME.
#pragma once

#include <string>

namespace amp::trace {

class StagedFile {
 public:
  // Creates `target`.partial. `replaces_target`: the target is expected to exist and is replaced
  // on publish (an in-place repair); otherwise the target must not exist (TraceFormatError, the
  // file named, before anything is created) and is never replaced. A .partial that already exists
  // (another run's, or the user's) is refused and never touched.
  StagedFile(std::string target, bool replaces_target);
  // Removes the .partial unless it was published.
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  // The open descriptor of the .partial, for a writer that takes ownership of it (and closes it).
  int release_descriptor();
  const std::string& partial_path() const { return partial_; }

  // Writes `text` to the .partial and closes it; OutputWriteError when any byte or the close fails.
  void write_all(const std::string& text);
  // fsyncs the closed .partial and renames it to the target (without replacing anything unless
  // `replaces_target`). OutputWriteError when the data cannot be made durable; TraceFormatError
  // when the target appeared meanwhile.
  void publish();

 private:
  std::string target_;
  std::string partial_;
  bool replaces_target_;
  int fd_ = -1;
  bool published_ = false;
};

}  // namespace amp::trace
