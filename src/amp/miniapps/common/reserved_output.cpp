// SPDX-License-Identifier: BSD-3-Clause
// Reservation (O_EXCL .partial, a probe write), the final write checked up to close, and the
// no-replace rename to the final name; rank 0's verdict broadcast to every rank in a real run.
#include <amp/miniapps/common/reserved_output.hpp>

#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/stop_signals.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>
#include <utility>

namespace amp {

namespace {

std::string partial_of(const std::string& path) { return path + ".partial"; }

// Writes all of `text` to `fd` and closes it; 0 or the errno of the first failure.
int write_and_close(int fd, const std::string& text) {
  int error = 0;
  std::size_t done = 0;
  while (done < text.size() && error == 0) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error = n < 0 ? errno : EIO;
    else
      done += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0 && errno != EINVAL) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  return error;
}

// Renames `from` to `to` unless `to` exists (then EEXIST): renameat2(RENAME_NOREPLACE), or where the
// filesystem lacks it, a hard link and an unlink. 0 or the errno.
int move_without_replacing(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  ::unlink(from.c_str());
  return 0;
}

// The writer's start-up check: "" and NAME.partial created, or why not (nothing created).
std::string reserve(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ignored;
  const std::string partial = partial_of(path);
  if (fs::exists(fs::symlink_status(path, ignored)))
    return fmt::format("{} '{}' already exists; choose a new name (nothing is overwritten)", what, path);
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::is_directory(folder, ignored)) return fmt::format("{} folder '{}' does not exist", what, folder.string());
  if (::access(folder.c_str(), W_OK) != 0) return fmt::format("{} folder '{}' is not writable", what, folder.string());
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST)
    return fmt::format(
        "{} '{}' is taken: '{}' exists (another run is writing it, or it is a file of yours); "
        "choose a new name (nothing is overwritten)",
        what, path, partial);
  if (fd < 0) return fmt::format("cannot create {} '{}': {}", what, partial, std::strerror(errno));
  // A page of bytes proves the filesystem has room now; the reservation is then emptied again.
  const int error = write_and_close(fd, std::string(4096, ' '));
  if (error != 0 || ::truncate(partial.c_str(), 0) != 0) {
    const int why = error != 0 ? error : errno;
    ::unlink(partial.c_str());
    return fmt::format("cannot write {} '{}': {}", what, path, std::strerror(why));
  }
  return "";
}

// Rank 0's text on every rank.
std::string broadcast(const std::string& text, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  std::string received(static_cast<std::size_t>(length), '\0');
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) received = text;
  if (length > 0) MPI_Bcast(received.data(), length, MPI_CHAR, 0, comm);
  return received;
}

}  // namespace

ReservedOutput::ReservedOutput(std::string path, const char* what, bool writer, MPI_Comm comm)
    : path_(std::move(path)), what_(what), writer_(writer), comm_(comm) {
  if (path_.empty()) return;  // nothing to write (the same on every rank)
  std::string problem = writer_ ? reserve(path_, what_) : "";
  reserved_ = writer_ && problem.empty();
  if (reserved_) stop_signals::remove_on_stop(partial_of(path_));  // SIGINT/SIGTERM: gone with the process
  if (comm_ != MPI_COMM_NULL) problem = broadcast(problem, comm_);
  if (!problem.empty()) {
    release();
    throw InputError(problem);
  }
}

ReservedOutput::~ReservedOutput() { release(); }

ReservedOutput::ReservedOutput(ReservedOutput&& other) noexcept
    : path_(std::move(other.path_)),
      what_(std::move(other.what_)),
      writer_(other.writer_),
      comm_(other.comm_),
      reserved_(std::exchange(other.reserved_, false)) {}

ReservedOutput& ReservedOutput::operator=(ReservedOutput&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    what_ = std::move(other.what_);
    writer_ = other.writer_;
    comm_ = other.comm_;
    reserved_ = std::exchange(other.reserved_, false);
  }
  return *this;
}

void ReservedOutput::release() {
  if (reserved_) {
    ::unlink(partial_of(path_).c_str());
    stop_signals::keep_on_stop(partial_of(path_));
  }
  reserved_ = false;
}

std::string ReservedOutput::write(const std::string& text) {
  if (path_.empty()) return "";
  std::string problem;
  if (writer_) {
    const std::string partial = partial_of(path_);
    // O_NOFOLLOW and no O_CREAT: only the file this run created is written.
    const int fd = reserved_ ? ::open(partial.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC) : -1;
    int error = fd < 0 ? (reserved_ ? errno : ENOENT) : write_and_close(fd, text);
    if (error == 0) error = move_without_replacing(partial, path_);
    if (error == 0) {
      stop_signals::keep_on_stop(partial);
      reserved_ = false;
    } else {
      release();
      problem = error == EEXIST ? fmt::format(
                                      "cannot write {} '{}': a file of that name appeared during the run (it was left "
                                      "as it is)",
                                      what_, path_)
                                : fmt::format("cannot write {} '{}': {}", what_, path_, std::strerror(error));
    }
  }
  return comm_ != MPI_COMM_NULL ? broadcast(problem, comm_) : problem;
}

}  // namespace amp
