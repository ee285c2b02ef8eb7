// SPDX-License-Identifier: BSD-3-Clause
// The progress line of long runs: rank 0 prints "progress: step s of T, x s" at most every
// `interval` seconds (0: never). Local: no communication, so nothing lands in a trace.
#pragma once

#include <amp/comm/stopwatch.hpp>

#include <cstdio>
#include <string>

namespace amp {

class ProgressLine {
 public:
  ProgressLine(double interval_seconds, int rank, int total_steps)
      : interval_(interval_seconds),
        active_(interval_seconds > 0 && rank == 0),
        total_(total_steps),
        start_(now_seconds()),
        next_(start_ + interval_seconds) {}

  // Call after step `step` (0-based); `detail` is appended (e.g. ", 812 blocks").
  void after_step(int step, const std::string& detail = "") {
    if (!active_ || now_seconds() < next_) return;
    std::printf("progress: step %d of %d%s, %.1f s\n", step + 1, total_, detail.c_str(), now_seconds() - start_);
    std::fflush(stdout);
    next_ = now_seconds() + interval_;
  }

 private:
  double interval_;
  bool active_;
  int total_;
  double start_;
  double next_;
};

}  // namespace amp
