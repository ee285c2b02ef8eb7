// SPDX-License-Identifier: BSD-3-Clause
// The synthesis driver: its flags' checks, the loop over virtual ranks, the compute model, and the summary
// line, .meta lines and results JSON it leaves; the synthesis's modes (run_mode.hpp) and the Environment of
// a virtual rank. What a synthesis does differently from a real run is decided here alone.
#include <amp/miniapps/common/synthesis.hpp>

#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/memory_check.hpp>
#include <amp/miniapps/common/plan_only.hpp>
#include <amp/miniapps/common/stop_signals.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/comm/stopwatch.hpp>
#include <amp/comm/transport_registry.hpp>
#include <amp/trace/reader/staged_directory.hpp>
#include <amp/trace/format/json_schema_version.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <vector>

namespace amp {

namespace {

// --ranks as given, in 1..kMaxVirtualRanks.
int virtual_ranks(const std::string& text) {
  const std::int64_t value = virtual_rank_count(text);
  check_virtual_ranks(value, text);
  return static_cast<int>(value);
}

// --compute_seconds as given: -0 is 0; a value below the smallest normal double (1e-320) is taken as it is
// (under the trace's nanosecond, no compute); one past the largest double is past the bound, named as given.
double compute_seconds_given(const std::string& text) {
  char* stop = nullptr;
  double value = std::strtod(text.c_str(), &stop);
  if (text.empty() || stop != text.c_str() + text.size() || std::isspace(static_cast<unsigned char>(text[0])))
    throw InputError(fmt::format("--compute_seconds: '{}' is not a number", text));
  if (std::isfinite(value) && !decimal_number(text))  // inf and nan go on to their bounds' lines
    throw InputError(fmt::format("--compute_seconds: '{}' is not a decimal number (e.g. 0.125 or 1.25e-1)", text));
  if (value == 0) value = 0;  // -0 as 0
  check_compute_seconds(value, text);
  return value;
}

// Bytes of the trace files in `folder` (a synthesis's folder holds only its own trace).
std::uintmax_t folder_bytes(const std::filesystem::path& folder) {
  std::uintmax_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.is_regular_file()) total += entry.file_size();
  return total;
}

void stop_if_signalled() {
  if (const int signal = stop_signals::pending(); signal != 0) throw stop_signals::Stopped{signal};
}

}  // namespace

namespace {

// One virtual rank's mode: no kernels, the compute model's clock instead; the rank's exchanges move no data.
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

  // Every virtual rank's plan, of the --ranks the synthesis checked (this rank's MPI rank and size).
  PlanTarget plan_target(const PlanOptions& plan, const TraceRequest&, const Environment& env) const override {
    if (plan.plan_only) throw InputError("--plan-only and --synthesize do not go together");
    if (plan.rank != -1) throw InputError("--rank needs --plan-only (a synthesis writes every rank)");
    return {env.rank(), env.size()};
  }
  std::string transport_problem(const comm::TransportRegistration& transport) const override {
    return synthesis_problem(transport);
  }
  void check_listing() const override { throw InputError("--list-combinations and --synthesize do not go together"); }
  // Fills no fields: the set-up's bytes, one virtual rank in memory at a time.
  void check_memory(MPI_Comm comm, bool, double, double setup_bytes) const override {
    check_node_memory(comm, setup_bytes, /*one_rank_at_a_time=*/true);
  }
  // Virtual rank 0 alone, without communicating (its calls would be traced).
  ReservedOutput reserve_results_file(const std::string& path, const Environment& env) const override {
    if (path.empty() || env.rank() != 0) return {};
    return ReservedOutput(path, "results file", true, MPI_COMM_NULL);
  }
  // Virtual rank 0 hands its results file and results to the synthesis, which writes them at its end.
  void finish(const Environment& env, ReservedOutput& results_file, nlohmann::json results, const LoopMeasurements&,
              const std::function<void(const nlohmann::json&)>&) const override {
    if (env.rank() == 0) synthesis_.keep_results(std::move(results_file), results);
  }

 private:
  Synthesis& synthesis_;
};

// Virtual rank `rank`'s environment: begins that rank's trace and makes the calls a real run makes after
// MPI_Init; the destructor makes the ones before MPI_Finalize and ends it. Its exchanges move no data,
// with MPI's buffers where the synthesizing process has them.
class VirtualRankEnvironment : public Environment {
 public:
  VirtualRankEnvironment(Synthesis& synthesis, int rank, const StartRequest& request)
      : Environment(MPI_COMM_WORLD, std::make_unique<SynthesizedRun>(synthesis)) {
    exchange_context_.emplace(comm_, synthesis.mpi_buffers(), /*moves_data=*/false);
    trace_dir_ = synthesis.directory();
    trace_setup_ = request.trace.setup;
    if (amp_dumpi_synthesis_begin(rank, synthesis.ranks(), trace_dir_.c_str(), request.argc, request.argv, "") != 0)
      throw std::runtime_error("the trace settings are not valid");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    if (!trace_setup_) MPI_Pcontrol(0);
  }
  ~VirtualRankEnvironment() override {
    if (!trace_setup_) MPI_Pcontrol(1);
    amp_dumpi_synthesis_end();
  }
};

// The synthesizing process: it traces only its virtual ranks, runs one host thread unless a count is
// given (no kernels run per virtual rank, and idle OpenMP workers beside a busy core made its small
// per-rank regions wait a time slice each: 10x slower), and runs the body once per virtual rank.
class SynthesisProcess : public ProcessMode {
 public:
  bool traces_process() const override { return false; }
  std::vector<std::string> default_kokkos_threads() const override { return {"--kokkos-threads=1"}; }
  void run(const char* proxy, const StartRequest& request, const Environment& process,
           const Body& body) const override {
    {
      Synthesis synthesis(proxy, request, process);
      synthesis.run(request, body);
    }
    // A signal after the last check: the synthesis is complete and kept, and the process still dies by it.
    if (const int signal = stop_signals::pending(); signal != 0) stop_signals::die_by(signal);
  }
};

}  // namespace

std::string synthesis_problem(const comm::TransportRegistration& transport) {
  const char* why = transport.tracing.not_synthesizable;
  if (why == nullptr) return "";
  std::string those;
  for (const comm::TransportRegistration& each : comm::registered_transports())
    if (each.tracing.not_synthesizable == nullptr) those += (those.empty() ? "" : ", ") + each.name;
  return "transport '" + transport.name + "' cannot be synthesized: " + why + " (synthesize with " + those + ")";
}

std::unique_ptr<ProcessMode> process_mode(const StartRequest& request) {
  if (request.synthesis.asked) return std::make_unique<SynthesisProcess>();
  return real_process();
}

Synthesis::Synthesis(const char* proxy, const StartRequest& request, const Environment& process)
    : proxy_(proxy), mpi_buffers_(process.exchange_context().buffers) {
  if (!AMP_TRACING_BUILT)
    throw InputError("--synthesize needs tracing, and this build has none (configured with AMP_ENABLE_TRACING=OFF)");
  const SynthesisRequest& asked = request.synthesis;
  directory_ = asked.directory;
  if (directory_.empty()) throw InputError("--synthesize needs a directory");
  if (!asked.ranks) throw InputError("--synthesize needs --ranks N, the virtual rank count");
  ranks_ = virtual_ranks(*asked.ranks);
  if (asked.compute_seconds) given_seconds_ = compute_seconds_given(*asked.compute_seconds);
  if (process.size() != 1)
    throw InputError(fmt::format("--synthesize runs in one process (started with {} MPI ranks)", process.size()));
  if (amp_dumpi_active() != 0)
    throw InputError("--synthesize writes its own traces into its directory; unset AMP_TRACE_DIR");
  if (request.trace.given) throw InputError("--synthesize writes its own traces into its directory; drop --trace");
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(fs::symlink_status(directory_, error)))
    throw InputError(
        fmt::format("--synthesize: '{}' already exists; a synthesis writes a new directory (nothing is "
                    "overwritten)",
                    directory_));
  // DIR's parent folders about to be created, innermost first, so that a synthesis that stops removes them.
  fs::path output = fs::absolute(directory_).lexically_normal();
  if (!output.has_filename()) output = output.parent_path();  // "out/" -> "out"
  for (auto folder = output.parent_path();
       !folder.empty() && !fs::exists(folder, error) && folder != folder.parent_path(); folder = folder.parent_path())
    created_folders_.push_back(folder.string());
  fs::create_directories(output.parent_path(), error);
  try {
    if (error) throw std::runtime_error(error.message());
    staging_ = std::make_unique<trace::StagedDirectory>(directory_);
    staging_->create();
  } catch (const std::exception& e) {
    staging_.reset();
    for (const auto& folder : created_folders_) fs::remove(folder, error);  // only if empty
    throw InputError(fmt::format("--synthesize: cannot create directory '{}': {}", directory_, e.what()));
  }
  staging_path_ = staging_->partial().string();
  // From here on a SIGINT, SIGTERM or SIGHUP stops at the next check; unwinding then removes the staging
  // folder, the results file's .partial and the folders made for DIR (the staging folder's own handler,
  // which removes only the folder, is taken over).
  stop_signals::defer();
}

Synthesis::~Synthesis() {
  if (completed_) return;
  // A synthesis that stops leaves no half trace: the staging folder is its own, and so are the folders made for DIR.
  results_file_ = ReservedOutput();
  staging_.reset();
  std::error_code ignored;
  for (const auto& folder : created_folders_) std::filesystem::remove(folder, ignored);  // only if empty
}

double Synthesis::compute_seconds(const std::string& what, const std::function<double()>& measure) {
  if (given_seconds_) {
    measured_.emplace(what, *given_seconds_);
    return *given_seconds_;
  }
  auto found = measured_.find(what);
  if (found == measured_.end()) found = measured_.emplace(what, measure()).first;
  return found->second;
}

void Synthesis::advance(double seconds) const {
  stop_if_signalled();
  modelled_seconds_ += seconds;
  if (modelled_seconds_ > kMaxModelledSeconds)
    throw InputError(
        fmt::format("the modelled run of one rank lasts more than {} s, more than a DUMPI trace's clock "
                    "holds; give a smaller --compute_seconds or fewer steps",
                    kMaxModelledSeconds));
  amp_dumpi_synthesis_advance(seconds);
}

void Synthesis::keep_results(ReservedOutput results_file, const nlohmann::json& results) {
  results_file_ = std::move(results_file);
  if (results.contains("config")) results_config_ = results["config"];
}

nlohmann::json Synthesis::model_json() const {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& [what, seconds] : measured_) steps.push_back({{"step", what}, {"seconds", seconds}});
  return {{"source", given_seconds_ ? "given with --compute_seconds" : "measured on this machine"}, {"steps", steps}};
}

std::string Synthesis::model_text() const {
  std::string text;
  for (const auto& [what, seconds] : measured_)
    text += fmt::format("{}{:.4g} s per {}", text.empty() ? "" : "; ", seconds, what);
  return fmt::format("{} ({})", text.empty() ? "no compute steps" : text,
                     given_seconds_ ? "given with --compute_seconds" : "measured on this machine");
}

void Synthesis::run(const StartRequest& request, const Body& body) {
  const double start = now_seconds();
  for (int rank = 0; rank < ranks_; ++rank) {
    stop_if_signalled();
    modelled_seconds_ = 0;
    VirtualRankEnvironment rank_environment(*this, rank, request);
    body(rank_environment);
  }
  const double seconds = now_seconds() - start;
  const std::string staged_meta = amp_dumpi_synthesis_meta_path();
  {
    std::ofstream out(staged_meta, std::ios::app);
    out << "amp_synthesized_ranks=" << ranks_ << "\namp_compute_model=" << model_text() << '\n';
    out.close();
    if (!out)
      throw TraceFileError(
          fmt::format("cannot add the compute model to the trace's .meta; the trace is "
                      "incomplete and nothing was left under '{}'",
                      directory_));
  }
  if (amp_dumpi_trace_failed() != 0)
    throw TraceFileError(
        fmt::format("the synthesized trace is incomplete (see the amp_dumpi lines above); nothing was "
                    "left under '{}'",
                    directory_));
  stop_if_signalled();
  const std::uintmax_t bytes = folder_bytes(staging_->partial());
  try {
    staging_->publish();
  } catch (const std::exception& e) {
    throw TraceFileError(
        fmt::format("--synthesize: cannot rename the finished trace to '{}': {}", directory_, e.what()));
  }
  completed_ = true;
  const std::string meta = (staging_->output() / std::filesystem::path(staged_meta).filename()).string();
  const double peak = peak_rss_mib();
  fmt::print("{}: synthesized {} ranks in {:.1f} s, peak memory {:.0f} MiB: {} ({:.1f} MiB)\n", proxy_, ranks_, seconds,
             peak, meta, static_cast<double>(bytes) / (1024.0 * 1024.0));
  fmt::print("compute model: {}\n", model_text());
  nlohmann::json results = {{"schema_version", kResultsSchemaVersion},
                            {"proxy", proxy_},
                            {"mode", "synthesis"},
                            {"config", results_config_},
                            {"synthesis",
                             {{"ranks", ranks_},
                              {"meta", meta},
                              {"seconds", seconds},
                              {"peak_rss_mib", peak},
                              {"trace_bytes", bytes},
                              {"compute_model", model_json()}}}};
  const std::string not_written = results_file_.write(results.dump(2) + '\n');
  if (!not_written.empty()) throw ResultsFileError(not_written);
}

}  // namespace amp
