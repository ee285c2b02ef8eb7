// SPDX-License-Identifier: BSD-3-Clause
// StagedFile: O_EXCL creation of NAME.partial, fsync before the rename, and a rename that never
// replaces a file it was not meant to (renameat2 RENAME_NOREPLACE, or a hard link where the
// filesystem lacks it); the .partial is removed on every failure.
#include <amp/trace/reader/staged_file.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <amp/trace/reader/file_output.hpp>
#include <amp/trace/reader/trace_error.hpp>

namespace amp::trace {

namespace {

bool exists(const std::string& path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0;
}

// Renames `from` to `to` unless `to` exists; 0 or the errno.
int rename_without_replacing(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  ::unlink(from.c_str());
  return 0;
}

}  // namespace

StagedFile::StagedFile(std::string target, bool replaces_target)
    : target_(std::move(target)), partial_(target_ + ".partial"), replaces_target_(replaces_target) {
  if (!replaces_target_ && exists(target_))
    throw TraceFormatError(target_ + " already exists; amp-trace never overwrites a file (remove it or name another)");
  fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    if (errno == EEXIST)
      throw TraceFormatError(partial_ + " already exists (another amp-trace writing " + target_ +
                             ", or a file of yours); it is left alone: remove it or name another output");
    throw TraceFormatError(partial_ + ": cannot create: " + std::strerror(errno));
  }
}

StagedFile::~StagedFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!published_) ::unlink(partial_.c_str());
}

int StagedFile::release_descriptor() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void StagedFile::write_all(const std::string& text) {
  write_fully(fd_, text, target_);
  int fd = release_descriptor();
  if (::close(fd) != 0) throw OutputWriteError(target_ + ": write failed: " + std::strerror(errno));
}

void StagedFile::publish() {
  int fd = ::open(partial_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    int error = errno;
    if (fd >= 0) ::close(fd);
    throw OutputWriteError(target_ + ": write failed: " + std::strerror(error));
  }
  ::close(fd);
  if (replaces_target_) {
    if (::rename(partial_.c_str(), target_.c_str()) != 0)
      throw OutputWriteError(target_ + ": cannot replace it: " + std::strerror(errno));
  } else if (int error = rename_without_replacing(partial_, target_); error != 0) {
    if (error == EEXIST) throw TraceFormatError(target_ + " appeared while amp-trace was writing it; it is left alone");
    throw OutputWriteError(target_ + ": cannot rename " + partial_ + " to it: " + std::strerror(error));
  }
  published_ = true;
}

}  // namespace amp::trace
