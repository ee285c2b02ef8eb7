// An output directory that never shows a partial state under its name: amp-trace's exports write
// into .NAME.partial-PID beside it and rename it to NAME only when complete. NAME must not exist;
// a failed or interrupted export leaves nothing.
#pragma once

#include <filesystem>
#include <string>

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

  // Where the export writes (not created: the caller creates it, or a writer that must).
  const std::filesystem::path& partial() const { return partial_; }
  // The name the export ends up under ("out/" given as "out").
  const std::filesystem::path& output() const { return output_; }
  // Renames the partial directory to the output; refuses if the name appeared meanwhile.
  void publish();

 private:
  std::string given_;
  std::filesystem::path output_, partial_;
  bool published_ = false;
};

}  // namespace amp::trace
