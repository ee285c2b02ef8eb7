// SPDX-License-Identifier: BSD-3-Clause
// StagedDirectory: the checks every amp-trace export makes of its output name, and the write-aside,
// rename-when-complete rule that keeps a failed or interrupted export from leaving anything behind.
#include <amp/trace/reader/staged_directory.hpp>

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <amp/trace/reader/trace_error.hpp>

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
  removed_on_signal_.emplace(partial_.string());
}

void StagedDirectory::create() const {
  if (::mkdir(partial_.c_str(), 0777) != 0)
    throw OutputWriteError(given_ + ": cannot create it: " + std::strerror(errno));
}

StagedDirectory::~StagedDirectory() {
  std::error_code ignored;
  if (!published_) fs::remove_all(partial_, ignored);
}

void StagedDirectory::publish() {
  std::error_code ignored;
  if (fs::exists(fs::symlink_status(output_, ignored)))
    throw std::runtime_error(given_ + ": appeared while exporting; amp-trace never overwrites");
  // Never onto a name that appeared meanwhile (an empty folder would otherwise be replaced).
  int renamed = ::renameat2(AT_FDCWD, partial_.c_str(), AT_FDCWD, output_.c_str(), RENAME_NOREPLACE);
  if (renamed != 0 && (errno == EINVAL || errno == ENOSYS)) renamed = ::rename(partial_.c_str(), output_.c_str());
  if (renamed != 0 && (errno == EEXIST || errno == ENOTEMPTY))
    throw std::runtime_error(given_ + ": appeared while exporting; amp-trace never overwrites");
  if (renamed != 0)
    throw OutputWriteError(given_ + ": cannot rename " + partial_.string() + " to it: " + std::strerror(errno));
  published_ = true;
}

}  // namespace amp::trace
