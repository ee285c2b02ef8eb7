// SPDX-License-Identifier: BSD-3-Clause
// How a proxy runs, handed to it by its Environment: a real run fills its fields, runs its kernels (timed
// as compute), adds sources and judges its checks; a synthesis (synthesis.hpp) makes the same MPI calls with
// the compute model in place of the kernels and its fields never filled or read. The process asks its
// ProcessMode how to run the body, and the body asks its RunMode what to do; what a synthesis does
// differently lives in synthesis.cpp alone, and nothing else asks whether a run is a synthesis.
#pragma once

#include <amp/comm/fwd.hpp>

#include <mpi.h>
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace amp {

class Environment;
class ReservedOutput;
struct LoopMeasurements;
struct PlanOptions;
struct PlanTarget;
struct StartRequest;
struct TraceRequest;

// The mode of one rank's run (a virtual rank's in a synthesis): what its body does differently.
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

  // The rank and rank count the set-up builds for, the plan flags checked against this mode (plan_only.hpp).
  virtual PlanTarget plan_target(const PlanOptions& plan, const TraceRequest& trace, const Environment& env) const = 0;
  // Why the checked transport cannot run in this mode ("" when it can).
  virtual std::string transport_problem(const comm::TransportRegistration& transport) const = 0;
  // Throws InputError when this mode cannot list the combinations (--list-combinations).
  virtual void check_listing() const = 0;
  // check_node_memory (memory_check.hpp) for what this rank allocates: its fields and set-up
  // (`run_bytes`), or the set-up alone (`setup_bytes`) where no field is filled (--plan-only).
  virtual void check_memory(MPI_Comm comm, bool plan_only, double run_bytes, double setup_bytes) const = 0;
  // The --results file, reserved once the configuration is accepted (reserved_output.hpp); "" reserves nothing.
  virtual ReservedOutput reserve_results_file(const std::string& path, const Environment& env) const = 0;
  // The end of every proxy body (run_proxy.hpp's finish_run).
  virtual void finish(const Environment& env, ReservedOutput& results_file, nlohmann::json results,
                      const LoopMeasurements& measurements,
                      const std::function<void(const nlohmann::json&)>& print_summary) const = 0;
};

// How the process runs a proxy's body: once on its own ranks (a real run), or once per virtual rank,
// each in an Environment of its own (a synthesis).
class ProcessMode {
 public:
  using Body = std::function<void(const Environment&)>;
  virtual ~ProcessMode() = default;

  // Whether --trace DIR (or AMP_TRACE_DIR) traces this process's own MPI calls.
  virtual bool traces_process() const = 0;
  // Kokkos' arguments when the command line sets no host thread count (none: Kokkos' default).
  virtual std::vector<std::string> default_kokkos_threads() const = 0;
  // Runs `body`; throws what it throws (InputError for a refused request).
  virtual void run(const char* proxy, const StartRequest& request, const Environment& process,
                   const Body& body) const = 0;
};

// How a proxy measures a compute step for a synthesis's model (the `measure` of RunMode::compute_seconds):
// runs `step` once to warm up, then kTimedRepeats times, and returns the fastest. Other work on the cores
// only ever adds time (an OpenMP barrier whose thread was descheduled waits a time slice), so the fastest
// run is the step's own cost: the median of 5 gave 80 us and 52 ms for one 64^3 step on a node that builds
// ran on.
inline constexpr int kTimedRepeats = 9;
double undisturbed_seconds(const std::function<void()>& step);

// The process mode the request asks for (decided in synthesis.cpp: a synthesis's for --synthesize).
std::unique_ptr<ProcessMode> process_mode(const StartRequest& request);
// A real run's modes (run_mode.cpp): of the process, and of each of its ranks.
std::unique_ptr<ProcessMode> real_process();
std::unique_ptr<RunMode> real_run();

}  // namespace amp
