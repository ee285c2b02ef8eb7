// SPDX-License-Identifier: BSD-3-Clause
// How a proxy runs its time loop, handed to it by its Environment: a real run fills its fields, runs
// its kernels (timed as compute), adds sources and judges its checks; a synthesis (synthesis.hpp) makes
// the same MPI calls with the compute model in place of the kernels and its fields never filled or read.
// The loop and the proxies ask the mode what to do; nothing else asks whether a run is a synthesis.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace amp {

class Synthesis;

class RunMode {
 public:
  virtual ~RunMode() = default;

  // Whether the run's fields hold data: filled at start, swept by the kernels, given sources and
  // --inject_fault, checked for conservation and digested into the checksum.
  virtual bool fills_fields() const = 0;
  // Seconds between progress lines, given what was asked (a synthesis prints none).
  virtual double progress_seconds(double asked) const = 0;
  // One variable's sweep: a real run calls `kernel` (update, swap, sources, fault), its time added to
  // `compute_seconds`; a synthesis advances its modelled clock by `modelled_seconds()`, then calls `swap`.
  virtual void sweep(double& compute_seconds, const std::function<double()>& modelled_seconds,
                     const std::function<void()>& kernel, const std::function<void()>& swap) const = 0;
  // The modelled seconds of one unit of work named `what` (a synthesis measures it once with `measure`,
  // or takes --compute_seconds); a real run models nothing: 0.
  virtual double compute_seconds(const std::string& what, const std::function<double()>& measure) const = 0;
};

// The mode of a real run, and of one virtual rank of `synthesis`.
std::unique_ptr<RunMode> real_run();
std::unique_ptr<RunMode> synthesized_run(Synthesis& synthesis);

}  // namespace amp
