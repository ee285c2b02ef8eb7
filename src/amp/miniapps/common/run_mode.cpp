// SPDX-License-Identifier: BSD-3-Clause
// A real run's modes (run_mode.hpp): the process runs the body once, on its own ranks, and each rank
// fills its fields, runs its kernels and writes its results. A synthesis's are in synthesis.cpp.
#include <amp/miniapps/common/run_mode.hpp>

#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/machine_load.hpp>
#include <amp/miniapps/common/memory_check.hpp>
#include <amp/miniapps/common/plan_only.hpp>
#include <amp/miniapps/common/reserved_output.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/trace/format/json_schema_version.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

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

  PlanTarget plan_target(const PlanOptions& plan, const TraceRequest& trace, const Environment& env) const override {
    return real_plan_target(plan, trace, env);
  }
  std::string transport_problem(const comm::TransportRegistration&) const override { return ""; }
  void check_listing() const override {}
  void check_memory(MPI_Comm comm, bool plan_only, double run_bytes, double setup_bytes) const override {
    check_node_memory(comm, plan_only ? setup_bytes : run_bytes);
  }
  // Rank 0 writes it for every rank.
  ReservedOutput reserve_results_file(const std::string& path, const Environment& env) const override {
    if (path.empty()) return {};
    return ReservedOutput(path, "results file", env.rank() == 0, env.comm());
  }
  // Rank 0 prints the summary and writes the results file (with "machine_load" added); a failed
  // verification throws VerificationError and then a file that could not be written ResultsFileError,
  // on every rank.
  void finish(const Environment& env, ReservedOutput& results_file, nlohmann::json results,
              const LoopMeasurements& measurements,
              const std::function<void(const nlohmann::json&)>& print_summary) const override {
    results["schema_version"] = kResultsSchemaVersion;
    results["machine_load"] = machine_load_json(env.comm(), env.load_at_start());
    if (env.rank() == 0) print_summary(results);
    const std::string not_written = results_file.write(results.dump(2) + '\n');
    if (!measurements.verified) throw VerificationError(measurements.failure);
    if (!not_written.empty()) throw ResultsFileError(not_written);
  }
};

class RealProcess : public ProcessMode {
 public:
  bool traces_process() const override { return true; }
  std::vector<std::string> default_kokkos_threads() const override { return {}; }
  void run(const char*, const StartRequest&, const Environment& process, const Body& body) const override {
    body(process);
  }
};

}  // namespace

double undisturbed_seconds(const std::function<void()>& step) {
  double fastest = std::numeric_limits<double>::infinity();
  for (int repeat = 0; repeat <= kTimedRepeats; ++repeat) {
    const double start = now_seconds();
    step();
    if (repeat > 0) fastest = std::min(fastest, now_seconds() - start);
  }
  return fastest;
}

std::unique_ptr<RunMode> real_run() { return std::make_unique<RealRun>(); }
std::unique_ptr<ProcessMode> real_process() { return std::make_unique<RealProcess>(); }

}  // namespace amp
