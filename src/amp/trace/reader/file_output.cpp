// SPDX-License-Identifier: BSD-3-Clause
// write_fully and append_to_file: POSIX writes whose errno is read at the call that failed, so a
// full disk reads "No space left on device" (buffered stdio would report it at fclose, if at all).
#include <amp/trace/reader/file_output.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <amp/trace/reader/trace_error.hpp>

namespace amp::trace {

namespace {

[[noreturn]] void write_failed(const std::string& name, int error) {
  throw OutputWriteError(name + ": write failed: " + std::strerror(error));
}

}  // namespace

void write_fully(int fd, std::string_view bytes, const std::string& name) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) write_failed(name, n < 0 ? errno : EIO);
    done += static_cast<std::size_t>(n);
  }
}

void append_to_file(const std::string& path, std::string_view bytes, const std::string& name) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) write_failed(name, errno);
  try {
    write_fully(fd, bytes, name);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) write_failed(name, errno);
}

}  // namespace amp::trace
