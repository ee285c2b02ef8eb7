// SPDX-License-Identifier: BSD-3-Clause
// A wall-clock stopwatch (steady_clock, so it makes no MPI call that would land in a trace) and a
// scoped accumulator for the compute / pack / wait / collective split.
#pragma once

#include <chrono>

namespace amp {

inline double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Adds the lifetime of the object to `total`.
class ScopedTimer {
 public:
  explicit ScopedTimer(double& total) : total_(total), start_(now_seconds()) {}
  ~ScopedTimer() { total_ += now_seconds() - start_; }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double& total_;
  double start_;
};

}  // namespace amp
