// SPDX-License-Identifier: BSD-3-Clause
// ByteSink: buffered, big-endian, commit-aware writes to one trace file with plain POSIX calls
// (no allocation after construction, so the tail can be written from a signal handler).
#include <amp/trace/writer/byte_sink.hpp>

#include <cerrno>
#include <cstdlib>
#include <new>
#include <unistd.h>

namespace amp::trace {

ByteSink::ByteSink(int fd, std::size_t capacity, std::uint64_t at)
    : fd_(fd),
      buffer_(static_cast<unsigned char*>(std::malloc(capacity))),
      capacity_(capacity),
      flushed_(at),
      committed_(at) {
  if (buffer_ == nullptr) throw std::bad_alloc();
}

ByteSink::~ByteSink() {
  close();
  std::free(buffer_);
}

void ByteSink::put_bytes(const void* data, std::size_t n) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  while (n > 0) {
    if (pos_ == capacity_) make_room();
    std::size_t chunk = capacity_ - pos_ < n ? capacity_ - pos_ : n;
    std::memcpy(buffer_ + pos_, bytes, chunk);
    pos_ += chunk;
    bytes += chunk;
    n -= chunk;
  }
}

void ByteSink::put_short_string(std::string_view s) {
  std::size_t n = s.size() > 0xFFFF ? 0xFFFF : s.size();
  put16(static_cast<std::uint16_t>(n));
  put_bytes(s.data(), n);
}

void ByteSink::put_long_string(std::string_view s) {
  put32(static_cast<std::uint32_t>(s.size()));
  put_bytes(s.data(), s.size());
}

void ByteSink::make_room() { flush(); }

bool ByteSink::flush() {
  std::size_t done = 0;
  while (done < pos_ && !failed_ && fd_ >= 0) {
    // pwrite at explicit offsets: a flush interrupted by a signal can be redone by the handler.
    ssize_t n = ::pwrite(fd_, buffer_ + done, pos_ - done, static_cast<off_t>(flushed_ + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      failed_ = true;
      error_number_ = errno;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  flushed_ += pos_;  // on failure the bytes are dropped; failed() reports it
  pos_ = 0;
  return !failed_;
}

void ByteSink::discard_uncommitted() {
  if (committed_ >= flushed_) {
    pos_ = static_cast<std::size_t>(committed_ - flushed_);
    return;
  }
  // Part of an incomplete record already reached the file: cut it off.
  if (fd_ >= 0 && !failed_) {
    if (::ftruncate(fd_, static_cast<off_t>(committed_)) != 0) {
      failed_ = true;
      error_number_ = errno;
    }
  }
  flushed_ = committed_;
  pos_ = 0;
}

bool ByteSink::close() {
  if (fd_ < 0) return !failed_;
  flush();
  if (!failed_ && ::ftruncate(fd_, static_cast<off_t>(flushed_)) != 0) {  // drop stale bytes past the end
    failed_ = true;
    error_number_ = errno;
  }
  if (::close(fd_) != 0 && !failed_) {
    failed_ = true;
    error_number_ = errno;
  }
  fd_ = -1;
  return !failed_;
}

}  // namespace amp::trace
