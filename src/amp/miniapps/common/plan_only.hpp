// SPDX-License-Identifier: BSD-3-Clause
// --plan-only: build the exchange plan of one rank of a virtual rank count in one process (no
// mpiexec), through the same set-up function the real run calls, and report its time and peak memory.
// --dump-plan FILE: write the plan each rank builds (real run or plan-only) as JSON to FILE.<rank>.
#pragma once

#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/reserved_output.hpp>

#include <amp/comm/exchange_plan.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace amp {

struct PlanOptions {
  bool plan_only = false;
  // --ranks as typed, the virtual rank count (plan-only, synthesis): read by virtual_rank_count, so that a
  // number past any type's range is named as given
  std::optional<std::string> ranks;
  std::int64_t rank = -1;  // the virtual rank whose plan is built (plan-only)
  std::string dump_file;
  std::optional<std::string> compute_seconds;  // --compute_seconds S as typed (synthesis; 0: no compute time)
};
void add_plan_options(CLI::App& app, PlanOptions& options);

// The most virtual ranks --plan-only and --synthesize accept (2^24, more than any machine's ranks):
// beyond it global sizes overflow a proxy's integers.
constexpr int kMaxVirtualRanks = 1 << 24;
// InputError unless 1 <= ranks <= kMaxVirtualRanks (after --plan-only's own "needs --ranks N" check); the
// message shows `as_given` where given (a number past 64 bits, read as the nearest bound).
void check_virtual_ranks(std::int64_t ranks, const std::string& as_given = "");
// --ranks as typed: a decimal integer of any length, one past 64 bits read as the nearest bound (which
// check_virtual_ranks then names as given); InputError "--ranks: 'x' is not a number" otherwise.
std::int64_t virtual_rank_count(const std::string& text);
// The most seconds one modelled compute step may take (--compute_seconds), and the longest modelled run
// of one virtual rank: DUMPI's records hold 16-bit seconds, which must not wrap.
constexpr double kMaxComputeSeconds = 3600;
constexpr double kMaxModelledSeconds = 60000;
// InputError unless seconds is finite, >= 0 and <= kMaxComputeSeconds (0: a network study's pure
// communication, no compute between the calls); the message shows `as_given` where given.
void check_compute_seconds(double seconds, const std::string& as_given = "");

// The rank and rank count the set-up builds for: (rank, ranks) from the flags in plan-only mode, the
// MPI rank and size otherwise.
struct PlanTarget {
  int rank = 0;
  int ranks = 1;
};

// Checks the plan flags against each other and the run's mode (RunMode::plan_target), the common flags and
// the MPI size, and that no dump file exists yet (collective: every rank gets the same answer); throws
// InputError naming the problem.
PlanTarget checked_plan_target(const PlanOptions& options, const TraceRequest& trace, const Environment& env);
// A real run's plan target: --plan-only's rank of --ranks, else the MPI rank and size (RunMode::plan_target).
PlanTarget real_plan_target(const PlanOptions& options, const TraceRequest& trace, const Environment& env);

// The whole plan: links with peers, phases and every piece (strided rows or index list).
nlohmann::json plan_json(const comm::ExchangePlan& plan, const PlanTarget& target);

// Writes plan_json to FILE.<rank> when --dump-plan was given.
void dump_plan(const PlanOptions& options, const comm::ExchangePlan& plan, const PlanTarget& target);

// Largest resident set of this process so far, MiB (getrusage ru_maxrss).
double peak_rss_mib();

// What --plan-only prints and writes: the plan's size, the seconds the set-up took, peak memory;
// `extra` (proxy-specific sizes, e.g. cells or blocks) is added to the JSON and the line.
struct PlanBuild {
  double start = 0, cpu_start = 0;
  double seconds = 0;         // wall clock
  double cpu_seconds = 0;     // this process's CPU time (user + system): the figure a loaded machine keeps
  double rss_before_mib = 0;  // peak RSS before the set-up started (MPI, Kokkos, the binary)
  nlohmann::json extra = nlohmann::json::object();

  static PlanBuild started();  // call right before the set-up
  void stop();                 // and right after it
};

// After the set-up: in plan-only mode reports the plan (one line, --results JSON, --dump-plan) and
// returns true, the proxy's work being done; in a real run dumps the plan if asked and returns false.
bool plan_only_done(const char* proxy, const PlanOptions& options, ReservedOutput& results_file,
                    const comm::ExchangePlan& plan, const PlanTarget& target, const PlanBuild& build);

}  // namespace amp
