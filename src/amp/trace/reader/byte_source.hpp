// SPDX-License-Identifier: BSD-3-Clause
// Bounds-checked big-endian reads from a trace held in memory (the whole file, or a window of it
// read by a streaming cursor): every read past the end becomes a TraceFormatError that says what
// was being read and where, never a crash. Positions are always absolute file offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <amp/trace/reader/trace_error.hpp>

namespace amp::trace {

class ByteSource {
 public:
  ByteSource(const std::uint8_t* data, std::size_t size, std::size_t position = 0)
      : data_(data), size_(size), position_(position) {}
  // A window: data holds the file's bytes [begin, end); reads outside it fail like reads past EOF.
  static ByteSource window(const std::uint8_t* data, std::size_t begin, std::size_t end, std::size_t position) {
    ByteSource source(data, end, position);
    source.begin_ = begin;
    return source;
  }

  std::size_t position() const { return position_; }
  std::size_t size() const { return size_; }
  std::size_t remaining() const { return position_ <= size_ ? size_ - position_ : 0; }
  void seek(std::size_t position, const char* what) {
    if (position > size_ || position < begin_)
      throw TraceFormatError(std::string(what) + " at offset " + std::to_string(position) + " lies beyond the end (" +
                             std::to_string(size_) + " bytes)");
    position_ = position;
  }

  std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(take(1, what)); }
  std::uint16_t u16(const char* what) { return static_cast<std::uint16_t>(take(2, what)); }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(take(4, what)); }
  std::int32_t i32(const char* what) { return static_cast<std::int32_t>(u32(what)); }
  std::uint64_t u64(const char* what) { return take(8, what); }
  // Reads n bytes as text (no terminator in the file).
  std::string text(std::size_t n, const char* what) {
    require(n, what);
    std::string s(reinterpret_cast<const char*>(data_ + (position_ - begin_)), n);
    position_ += n;
    return s;
  }
  // Element count of an array whose elements take at least element_bytes each; rejects counts the
  // rest of the file cannot hold, so corrupt counts never allocate huge buffers.
  std::uint32_t count(std::size_t element_bytes, const char* what) {
    std::size_t at = position_;
    std::uint32_t n = u32(what);
    if (element_bytes > 0 && static_cast<std::uint64_t>(n) * element_bytes > remaining())
      throw TraceFormatError(std::string(what) + " at offset " + std::to_string(at) + " claims " + std::to_string(n) +
                             " entries but only " + std::to_string(remaining()) + " bytes follow");
    return n;
  }

 private:
  void require(std::size_t n, const char* what) const {
    if (n > remaining() || position_ < begin_)
      throw TraceFormatError(std::string("truncated ") + what + " at offset " + std::to_string(position_) + ": needs " +
                             std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
  }
  std::uint64_t take(std::size_t n, const char* what) {
    require(n, what);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < n; ++i) value = (value << 8) | data_[position_ - begin_ + i];
    position_ += n;
    return value;
  }

  const std::uint8_t* data_;  // holds the file's bytes [begin_, size_)
  std::size_t size_;
  std::size_t position_;
  std::size_t begin_ = 0;
};

}  // namespace amp::trace
