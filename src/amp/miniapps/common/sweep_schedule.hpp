// SPDX-License-Identifier: BSD-3-Clause
// Which variable sweeps a run makes when its step computes less than a sweep of every variable before
// each exchange (--sweeps_per_exchange below 1): no seed says how an application's compute divides between
// its exchanges, so a deck declares the share, and the sweeps it keeps are spread evenly over the run.
#pragma once

#include <cmath>

namespace amp {

// The run's (exchange, variable) pairs are counted exchange by exchange, n = exchange * num_vars + v; pair n
// is swept when it carries the running total floor(n * share) past a whole number (a Bresenham line), so
// every variable takes its turn and every rank, strategy and rank count sweeps the same pairs. At share 1
// every pair is swept. The exchanges themselves are unchanged: every variable is sent at every exchange.
struct SweepSchedule {
  double share = 1.0;  // sweeps per (exchange, variable), 0 < share <= 1

  bool sweeps(long long n) const {
    return std::floor(static_cast<double>(n + 1) * share) > std::floor(static_cast<double>(n) * share);
  }
  // Of the first `pairs` pairs, how many are swept (exactly the count sweeps() gives: the sum telescopes).
  long long made(long long pairs) const {
    return static_cast<long long>(std::floor(static_cast<double>(pairs) * share));
  }
};

}  // namespace amp
