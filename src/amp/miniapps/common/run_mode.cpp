// SPDX-License-Identifier: BSD-3-Clause
// The two run modes (run_mode.hpp): a real run's and a synthesis's.
#include <amp/miniapps/common/run_mode.hpp>

#include <amp/miniapps/common/synthesis.hpp>

#include <amp/comm/stopwatch.hpp>

namespace amp {

namespace {

class RealRun : public RunMode {
 public:
  bool fills_fields() const override { return true; }
  double progress_seconds(double asked) const override { return asked; }
  void sweep(double& compute_seconds, const std::function<double()>&, const std::function<void()>& kernel,
             const std::function<void()>&) const override {
    ScopedTimer timer(compute_seconds);
    kernel();
  }
  double compute_seconds(const std::string&, const std::function<double()>&) const override { return 0; }
};

class SynthesizedRun : public RunMode {
 public:
  explicit SynthesizedRun(Synthesis& synthesis) : synthesis_(synthesis) {}
  bool fills_fields() const override { return false; }
  double progress_seconds(double) const override { return 0; }
  void sweep(double&, const std::function<double()>& modelled_seconds, const std::function<void()>&,
             const std::function<void()>& swap) const override {
    synthesis_.advance(modelled_seconds());
    swap();
  }
  double compute_seconds(const std::string& what, const std::function<double()>& measure) const override {
    return synthesis_.compute_seconds(what, measure);
  }

 private:
  Synthesis& synthesis_;
};

}  // namespace

std::unique_ptr<RunMode> real_run() { return std::make_unique<RealRun>(); }
std::unique_ptr<RunMode> synthesized_run(Synthesis& synthesis) { return std::make_unique<SynthesizedRun>(synthesis); }

}  // namespace amp
