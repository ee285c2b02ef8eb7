// SPDX-License-Identifier: BSD-3-Clause
// Hand-written expectations for the golden-bytes test: big-endian byte strings built field by
// field exactly as shared/docs/dumpi-format.md lays them out (independent of the writer's code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace amp::trace::test {

class ExpectedBytes {
 public:
  ExpectedBytes& u8(std::uint32_t v) {
    bytes.push_back(static_cast<std::uint8_t>(v));
    return *this;
  }
  ExpectedBytes& u16(std::uint32_t v) { return u8(v >> 8).u8(v); }
  ExpectedBytes& u32(std::uint32_t v) { return u16(v >> 16).u16(v); }
  ExpectedBytes& i32(std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); }
  ExpectedBytes& u64(std::uint64_t v) {
    return u32(static_cast<std::uint32_t>(v >> 32)).u32(static_cast<std::uint32_t>(v));
  }
  ExpectedBytes& long_string(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
    return *this;
  }
  ExpectedBytes& short_string(const std::string& s) {
    u16(static_cast<std::uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
    return *this;
  }
  std::vector<std::uint8_t> bytes;
};

// A call record with libamp_dumpi's default mask 0x4B (statuses, wall times, thread id): function id,
// mask, thread 0, then 12 bytes of wall start/stop that the comparison skips.
struct ExpectedRecord {
  std::string label;
  std::uint16_t function;
  ExpectedBytes bytes;
};

inline ExpectedRecord record(const std::string& label, std::uint16_t function) {
  ExpectedRecord r{label, function, {}};
  r.bytes.u16(function).u8(0x4B).u16(0);
  for (int i = 0; i < 12; ++i) r.bytes.u8(0);
  return r;
}

inline constexpr std::size_t kTimeBytesBegin = 5;  // after u16 id, u8 mask, u16 thread
inline constexpr std::size_t kTimeBytesEnd = 17;   // u16+u32 start, u16+u32 stop

}  // namespace amp::trace::test
