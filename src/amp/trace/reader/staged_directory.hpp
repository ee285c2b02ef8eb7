// SPDX-License-Identifier: BSD-3-Clause
// An output directory that never shows a partial state under its name: amp-trace's exports write
// into .NAME.partial-PID beside it and rename it to NAME only when complete. NAME must not exist;
// a failed export, or one ended by SIGINT, SIGTERM or SIGHUP, leaves nothing.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <amp/trace/reader/removed_on_signal.hpp>

namespace amp::trace {

class StagedDirectory {
 public:
  // Checks the name the user gave (one line, std::runtime_error): a directory name, not an existing
  // path, under a folder that exists. Creates nothing yet.
  explicit StagedDirectory(const std::string& output_directory);
  // Removes the partial directory unless it was published.
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  // Where the export writes (not created: create() it, or let a writer that must create it).
  const std::filesystem::path& partial() const { return partial_; }
  // Creates the partial directory; OutputWriteError (the system's reason) when the disk refuses.
  void create() const;
  // The name the export ends up under ("out/" given as "out").
  const std::filesystem::path& output() const { return output_; }
  // Renames the partial directory to the output; refuses if the name appeared meanwhile
  // (std::runtime_error), OutputWriteError when the rename fails.
  void publish();

 private:
  std::string given_;
  std::filesystem::path output_, partial_;
  bool published_ = false;
  std::optional<RemovedOnSignal> removed_on_signal_;
};

}  // namespace amp::trace
