// StagedDirectory: the checks every amp-trace export makes of its output name, and the write-aside,
// rename-when-complete rule that keeps a failed export from leaving anything behind.
#include "staged_directory.hpp"

#include <unistd.h>

#include <stdexcept>

namespace amp::trace {

namespace fs = std::filesystem;

StagedDirectory::StagedDirectory(const std::string& output_directory) : given_(output_directory) {
  output_ = fs::path(output_directory);
  if (!output_.has_filename() && output_.has_parent_path()) output_ = output_.parent_path();  // "out/" -> "out"
  std::error_code ignored;
  if (fs::exists(fs::symlink_status(output_, ignored)))
    throw std::runtime_error(given_ + ": already exists; amp-trace never overwrites, name a new directory");
  const fs::path parent = output_.has_parent_path() ? output_.parent_path() : fs::path(".");
  if (fs::exists(parent, ignored) && !fs::is_directory(parent, ignored))
    throw std::runtime_error(given_ + ": " + parent.string() + " is not a directory");
  if (!fs::is_directory(parent, ignored))
    throw std::runtime_error(given_ + ": the directory " + parent.string() + " does not exist");
  if (output_.filename().empty()) throw std::runtime_error(given_ + ": not a directory name");
  partial_ = parent / ("." + output_.filename().string() + ".partial-" + std::to_string(::getpid()));
}

StagedDirectory::~StagedDirectory() {
  std::error_code ignored;
  if (!published_) fs::remove_all(partial_, ignored);
}

void StagedDirectory::publish() {
  std::error_code ignored;
  if (fs::exists(fs::symlink_status(output_, ignored)))
    throw std::runtime_error(given_ + ": appeared while exporting; amp-trace never overwrites");
  fs::rename(partial_, output_);
  published_ = true;
}

}  // namespace amp::trace
