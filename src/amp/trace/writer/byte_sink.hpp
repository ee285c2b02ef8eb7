// SPDX-License-Identifier: BSD-3-Clause
// A fixed-size output buffer in front of a file descriptor that writes big-endian DUMPI primitives.
// Records are "committed" when complete, so an abnormal exit can drop a half-written record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace amp::trace {

class ByteSink {
 public:
  // Takes ownership of fd (closed by close() or the destructor). capacity is allocated once. `at` is the
  // file offset fd writes at (bytes already there, for offset() and the index a tail writes).
  ByteSink(int fd, std::size_t capacity, std::uint64_t at = 0);
  ~ByteSink();
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;

  void put8(std::uint8_t v) {
    if (pos_ + 1 > capacity_) make_room();
    buffer_[pos_++] = v;
  }
  void put16(std::uint16_t v) { put_raw(__builtin_bswap16(v)); }
  void put32(std::uint32_t v) { put_raw(__builtin_bswap32(v)); }
  void put64(std::uint64_t v) { put_raw(__builtin_bswap64(v)); }
  void put_i32(std::int32_t v) { put32(static_cast<std::uint32_t>(v)); }
  // Room for n (<= capacity) contiguous bytes, to be filled with the store_* helpers below.
  unsigned char* claim(std::size_t n) {
    if (pos_ + n > capacity_) make_room();
    unsigned char* at = buffer_ + pos_;
    pos_ += n;
    return at;
  }
  static unsigned char* store16(unsigned char* at, std::uint16_t v) {
    v = __builtin_bswap16(v);
    std::memcpy(at, &v, 2);
    return at + 2;
  }
  static unsigned char* store32(unsigned char* at, std::uint32_t v) {
    v = __builtin_bswap32(v);
    std::memcpy(at, &v, 4);
    return at + 4;
  }
  void put_bytes(const void* data, std::size_t n);
  // u16 length + bytes (header strings, address names); longer strings are cut at 65535 bytes.
  void put_short_string(std::string_view s);
  // u32 length + bytes (MPI_Init argv entries).
  void put_long_string(std::string_view s);

  // Absolute file offset of the next byte written.
  std::uint64_t offset() const { return flushed_ + pos_; }
  // Marks everything written so far as complete.
  void commit() { committed_ = offset(); }
  // Forgets bytes written after the last commit (truncating the file if they were flushed).
  // Async-signal-safe.
  void discard_uncommitted();
  // Writes the buffer to the file. Async-signal-safe. Returns false after any write error.
  bool flush();
  // Flushes and closes the file; returns false if any write or the close failed.
  bool close();
  bool failed() const { return failed_; }
  int error_number() const { return error_number_; }
  std::uint64_t bytes_written() const { return offset(); }

 private:
  template <class T>
  void put_raw(T big_endian) {
    if (pos_ + sizeof(T) > capacity_) make_room();
    std::memcpy(buffer_ + pos_, &big_endian, sizeof(T));
    pos_ += sizeof(T);
  }
  void make_room();

  int fd_;
  unsigned char* buffer_;
  std::size_t capacity_;
  std::size_t pos_ = 0;
  std::uint64_t flushed_;
  std::uint64_t committed_;
  bool failed_ = false;
  int error_number_ = 0;
};

}  // namespace amp::trace
