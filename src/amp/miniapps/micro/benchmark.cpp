// SPDX-License-Identifier: BSD-3-Clause
// Shared command-line flags of the micro-benchmarks and their validation (identical on every rank,
// before any communication, so a bad value gives one line and the same exit on all ranks).
#include <amp/miniapps/micro/benchmark.hpp>

#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>

#include <fmt/format.h>

namespace amp::micro {

void add_run_options(CLI::App& command, const Benchmark& benchmark, RunSettings& settings) {
  const RepetitionDefaults defaults = benchmark.repetition_defaults();
  settings.iterations = defaults.iterations;
  settings.warmup = defaults.warmup;
  settings.repetitions = defaults.repetitions;
  if (auto limits = benchmark.size_limits()) {
    settings.min_size = limits->default_min;
    settings.max_size = limits->default_max;
    settings.volume = std::uint64_t{64} << 20;
    command.add_option("--min-size", settings.min_size, "smallest message size (bytes; 1KiB, 1MiB, ... accepted)")
        ->transform(CLI::AsSizeValue(true))
        ->capture_default_str();
    command.add_option("--max-size", settings.max_size, "largest message size; sizes are the powers of two between")
        ->transform(CLI::AsSizeValue(true))
        ->capture_default_str();
    command
        .add_option("--volume", settings.volume,
                    "bytes one repetition may move per rank; large sizes get fewer iterations")
        ->transform(CLI::AsSizeValue(true))
        ->capture_default_str();
  }
  command.add_option("--iterations", settings.iterations, benchmark.iterations_meaning())->capture_default_str();
  command.add_option("--warmup", settings.warmup, "untimed iterations before the timed repetitions")
      ->capture_default_str();
  command.add_option("--repetitions", settings.repetitions, "timed repetitions (min/avg/max are over these)")
      ->capture_default_str();
  command.add_option("--csv", settings.csv_file, "write the table as CSV to this (new) file");
  command.add_option("--results", settings.results_file, "write the results as JSON to this (new) file");
  // --trace and --trace-setup: read once, into the start request (start_request.hpp).
  command.add_option("--trace", "write a DUMPI trace of the benchmark (warm-up, timed part, check) into DIR")
      ->type_name("TEXT");
  command.add_flag("--trace-setup", "with --trace: record set-up and tear-down too");
}

namespace {

bool is_power_of_two(std::uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

void validate_sizes(const RunSettings& settings, const SizeLimits& limits) {
  for (auto [flag, value] : {std::pair{"--min-size", settings.min_size}, std::pair{"--max-size", settings.max_size}}) {
    if (value < limits.smallest_allowed || value > limits.largest_allowed) {
      throw InputError(fmt::format("{} {} is out of range: sizes must lie between {} and {} bytes", flag, value,
                                   limits.smallest_allowed, limits.largest_allowed));
    }
    if (value % limits.multiple_of != 0) {
      throw InputError(fmt::format("{} {} must be a multiple of {} bytes", flag, value, limits.multiple_of));
    }
  }
  if (settings.min_size > settings.max_size) {
    throw InputError(fmt::format("--min-size {} is larger than --max-size {}", settings.min_size, settings.max_size));
  }
  if (!is_power_of_two(settings.min_size)) {
    throw InputError(fmt::format("--min-size {} must be a power of two (sizes double from it)", settings.min_size));
  }
  if (settings.volume < settings.min_size) {
    throw InputError(fmt::format("--volume {} is smaller than --min-size {}", settings.volume, settings.min_size));
  }
}

}  // namespace

void validate_run_settings(const RunSettings& settings, const Benchmark& benchmark, int ranks) {
  if (auto limits = benchmark.size_limits()) validate_sizes(settings, *limits);
  if (settings.iterations < 1) throw InputError(fmt::format("--iterations {} must be at least 1", settings.iterations));
  if (settings.warmup < 0) throw InputError(fmt::format("--warmup {} must not be negative", settings.warmup));
  if (settings.repetitions < 1) {
    throw InputError(fmt::format("--repetitions {} must be at least 1", settings.repetitions));
  }
  if (!settings.csv_file.empty() && settings.csv_file == settings.results_file) {
    throw InputError("--csv and --results name the same file '" + settings.csv_file + "'");
  }
  benchmark.validate(settings, ranks);
}

nlohmann::ordered_json run_settings_json(const RunSettings& settings, const Benchmark& benchmark,
                                         const std::string& trace_dir) {
  nlohmann::ordered_json json;
  if (benchmark.size_limits()) {
    json["min_size"] = settings.min_size;
    json["max_size"] = settings.max_size;
    json["volume"] = settings.volume;
  }
  json["iterations"] = settings.iterations;
  json["warmup"] = settings.warmup;
  json["repetitions"] = settings.repetitions;
  json["csv"] = settings.csv_file;
  json["results"] = settings.results_file;
  json["trace"] = trace_dir;
  json["options"] = benchmark.options_json();
  return json;
}

}  // namespace amp::micro
