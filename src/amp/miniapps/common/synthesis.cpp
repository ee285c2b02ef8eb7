// SPDX-License-Identifier: BSD-3-Clause
// The synthesis driver: its flags' checks, the loop over virtual ranks,
// the compute model, and the summary line, .meta lines and results JSON it leaves.
#include <amp/miniapps/common/synthesis.hpp>

#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/plan_only.hpp>
#include <amp/miniapps/common/stop_signals.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/comm/stopwatch.hpp>
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
  if (request.trace_given) throw InputError("--synthesize writes its own traces into its directory; drop --trace");
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

double Synthesis::undisturbed_seconds(const std::function<void()>& step) {
  double fastest = std::numeric_limits<double>::infinity();
  for (int repeat = 0; repeat <= kTimedRepeats; ++repeat) {
    const double start = now_seconds();
    step();
    if (repeat > 0) fastest = std::min(fastest, now_seconds() - start);
  }
  return fastest;
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
    Environment rank_environment(*this, rank, request);
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
  nlohmann::json results = {{"schema_version", kJsonSchemaVersion},
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
