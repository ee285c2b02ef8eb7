// SPDX-License-Identifier: BSD-3-Clause
// The clocks a record carries: CLOCK_MONOTONIC wall time (always) and, when enabled,
// CLOCK_PROCESS_CPUTIME_ID (one extra system call per timestamp). In a synthesis both read the
// virtual rank's modelled clock instead (synthetic_mpi.hpp).
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

// The clock of a synthesized rank: advanced only by the compute model, so MPI calls take no time.
struct SyntheticClock {
  inline static bool on = false;
  inline static std::int64_t ns = 0;
  static Timestamp now() { return {ns / 1'000'000'000, static_cast<std::uint32_t>(ns % 1'000'000'000)}; }
};

inline Timestamp wall_now() { return SyntheticClock::on ? SyntheticClock::now() : read_clock(CLOCK_MONOTONIC); }
inline Timestamp cpu_now() { return SyntheticClock::on ? SyntheticClock::now() : read_clock(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace amp::trace
