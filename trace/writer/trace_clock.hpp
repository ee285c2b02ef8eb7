// The clocks a record carries: CLOCK_MONOTONIC wall time (always) and, when enabled,
// CLOCK_PROCESS_CPUTIME_ID (one extra system call per timestamp).
#pragma once

#include <cstdint>
#include <ctime>

namespace amp::trace {

struct Timestamp {
  std::int64_t sec = 0;
  std::uint32_t nsec = 0;
};

inline Timestamp read_clock(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return {static_cast<std::int64_t>(ts.tv_sec), static_cast<std::uint32_t>(ts.tv_nsec)};
}

inline Timestamp wall_now() { return read_clock(CLOCK_MONOTONIC); }
inline Timestamp cpu_now() { return read_clock(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace amp::trace
