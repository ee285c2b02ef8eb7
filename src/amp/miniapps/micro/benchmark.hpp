// SPDX-License-Identifier: BSD-3-Clause
// The interface every micro-benchmark implements (one file per benchmark, chosen by subcommand name),
// and the settings every benchmark shares: size sweep, iterations, warm-up, repetitions, outputs.
#pragma once

#include <amp/miniapps/micro/result_table.hpp>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace amp::micro {

// The message sizes a benchmark accepts and sweeps by default (bytes, powers of two between).
struct SizeLimits {
  std::uint64_t smallest_allowed = 1;
  std::uint64_t largest_allowed = 1;
  std::uint64_t default_min = 1;
  std::uint64_t default_max = 1;
  std::uint64_t multiple_of = 1;
};

struct RepetitionDefaults {
  int iterations = 100;
  int warmup = 10;
  int repetitions = 5;
};

// What the user chose on the command line, shared by all benchmarks.
struct RunSettings {
  std::uint64_t min_size = 0;
  std::uint64_t max_size = 0;
  int iterations = 0;   // per repetition (shrunk for large sizes so that one repetition moves <= volume)
  int warmup = 0;       // untimed iterations before the timed repetitions
  int repetitions = 0;  // timed repetitions; reports give min/avg/max over them
  std::uint64_t volume = 0;
  std::string csv_file;
  std::string results_file;
};

class Benchmark {
 public:
  virtual ~Benchmark() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  // Benchmarks that sweep message sizes say which; the others (stream, amo, gups) return nothing.
  virtual std::optional<SizeLimits> size_limits() const { return std::nullopt; }
  virtual RepetitionDefaults repetition_defaults() const { return {}; }
  virtual std::string iterations_meaning() const { return "timed iterations per repetition"; }
  // Adds the benchmark's own flags to its subcommand.
  virtual void add_options(CLI::App& /*command*/) {}
  // Checks the benchmark's own flags against the rank count; throws InputError. Runs on every rank
  // with identical inputs, before any communication.
  virtual void validate(const RunSettings& /*settings*/, int /*ranks*/) const {}
  // Bytes one rank allocates for its data, for the memory check made before the run (0: small).
  virtual double bytes_per_rank(const RunSettings& /*settings*/) const { return 0; }
  virtual nlohmann::ordered_json options_json() const { return nlohmann::ordered_json::object(); }
  // Runs warm-up and timed repetitions, then verifies what moved; rows carry a "verified" column.
  virtual ResultTable run(const RunSettings& settings, MPI_Comm comm) = 0;
};

// Adds the shared flags (--min-size/--max-size/--volume where sizes apply, --iterations, --warmup,
// --repetitions, --csv, --results, --trace, --trace-setup) with the benchmark's defaults.
void add_run_options(CLI::App& command, const Benchmark& benchmark, RunSettings& settings);

// Checks the shared flags (ranges, output paths) and then the benchmark's own; throws InputError.
void validate_run_settings(const RunSettings& settings, const Benchmark& benchmark, int ranks);

// `trace_dir`: --trace as given ("" when not).
nlohmann::ordered_json run_settings_json(const RunSettings& settings, const Benchmark& benchmark,
                                         const std::string& trace_dir);

}  // namespace amp::micro
