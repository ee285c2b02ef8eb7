// SPDX-License-Identifier: BSD-3-Clause
// The time loop every proxy runs, written once: the traced region, the steps and variables, the
// synthesis's compute model in place of the kernels, sources and --inject_fault, the digest and the
// verdict. A proxy derives from ProxyLoop and supplies the hooks (publish, update, sources, digest).
#pragma once

#include <amp/miniapps/common/conservation.hpp>
#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/run_config.hpp>
#include <amp/miniapps/common/sweep_schedule.hpp>

#include <amp/comm/combination.hpp>
#include <amp/comm/strategy.hpp>

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace amp {

class RunMode;

// What the loop needs of a proxy's configuration.
struct LoopSettings {
  int num_vars = 0;
  int num_tsteps = 0;
  double progress_seconds = 0;
  double inject_fault = 0;  // testing only: the perturbation of variable 0 after its sweep in step num_tsteps / 2
  double tolerance = 0;     // of the conservation checks
  int report_every = 0;     // rank 0 prints a step's conservation error every this many steps (0: never)
  SweepSchedule sweeps;     // which variables are swept before each of the loop's exchanges

  // From the fields every proxy's configuration shares (run_config.hpp).
  static LoopSettings of(const RunConfig& c) {
    LoopSettings s;
    s.num_vars = c.num_vars;
    s.num_tsteps = c.num_tsteps;
    s.progress_seconds = c.progress_seconds;
    s.inject_fault = c.inject_fault;
    s.tolerance = c.tolerance();
    s.sweeps.share = c.sweeps_per_exchange;
    return s;
  }
};

// Per step and variable: need_ghosts(v) -> update (or, in a synthesis, the compute model) -> swap ->
// sources and fault -> publish(v); then the proxy's end of step. A variable the sweep schedule leaves out
// of a step is published unchanged (its sources and fault still land). The MPI calls of a step are the
// strategy's, then end_step's.
class ProxyLoop {
 public:
  virtual ~ProxyLoop() = default;
  ProxyLoop(const ProxyLoop&) = delete;
  ProxyLoop& operator=(const ProxyLoop&) = delete;

  // The time loop inside the traced region, then the final check, the checksum (one MPI_Allreduce) and
  // the verdict; fills m's loop fields. Collective over the run's communicator.
  void run(const Environment& env, LoopMeasurements& m);

 protected:
  ProxyLoop(const LoopSettings& settings, const Environment& env, const comm::Combination& combination);

  // The hooks, in the order a step calls them.
  // The strategy of the step exchange (nobel replaces it at each AMR step).
  virtual comm::Strategy& strategy() = 0;
  // Variable v's current field is ready: hand it to the strategy (Strategy::computed).
  virtual void publish(int v) = 0;
  // A real run's sweep of variable v in `step`, from its current field into its next one (timed as compute).
  virtual void update(int v, int step) = 0;
  // The next field becomes the current one; in a synthesis too (the transports key on the addresses).
  virtual void swap_fields(int v) = 0;
  // What enters variable v at the start of `step` (ghost's spikes); a real run's only.
  virtual void add_sources(int /*v*/, int /*step*/) {}
  // Whether --inject_fault's perturbation lands on this rank (rank 0 unless a proxy says otherwise),
  // and the perturbation itself, of variable 0's current field.
  virtual bool fault_lands_here() const { return rank_ == 0; }
  virtual void inject_fault() = 0;
  // Whether each variable is published right after its sweep in `step` (all steps but the last unless
  // a proxy defers it, as nobel does before an AMR step).
  virtual bool publishes_after(int step) const { return step + 1 < settings_.num_tsteps; }
  // A synthesis's modelled seconds for one variable's sweep on this rank.
  virtual double modelled_step_seconds() = 0;
  // After every variable's sweep in `step`: the step's collective work (conservation check, time step, AMR).
  virtual void end_step(int step, LoopMeasurements& m) = 0;
  // Appended to the progress line (e.g. ", 812 blocks").
  virtual std::string progress_detail() const { return ""; }
  // After the traced region: the strategy's times and traffic into m.
  virtual void record_exchange(LoopMeasurements& m);
  // The conservation check of the final fields, when the proxy makes one (before the checksum).
  virtual void final_check() {}
  // Variable v's share of this rank's checksum of the final fields (a real run's only).
  virtual std::uint64_t digest(int v) = 0;

  // For the hooks. One conservation check (one MPI_Allreduce) of variables [0, count) from this rank's
  // sums; a real run judges it against the tolerance (a failure names `when`). Returns the worst error.
  double check(const std::vector<double>& local_sums, int count, const std::string& when);
  // The check after `step`, "step N" (1-based), which rank 0 reports every report_every steps.
  void check_after_step(const std::vector<double>& local_sums, int count, int step);
  // Whether --inject_fault perturbs variable v on this rank right after its sweep in `step`.
  bool fault_lands(int v, int step) const;

  const LoopSettings settings_;
  MPI_Comm comm_;                         // the ranks the run is on
  const comm::ExchangeContext exchange_;  // what the strategies are built in (make_strategy)
  const comm::Combination combination_;   // the strategy and transport, checked once at start-up
  int rank_;                              // of comm_
  const RunMode& mode_;                   // a real run's or a synthesis's (run_mode.hpp)
  Conservation conservation_;

 private:
  double checked(const std::vector<double>& local_sums, int count, const std::string& when, bool report);
};

}  // namespace amp
