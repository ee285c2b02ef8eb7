// SPDX-License-Identifier: BSD-3-Clause
// The run configuration ghost, sage and nobel share, declared once: the flags all three take, their
// checks, their keys in the results JSON, and the mesh flags of the two on a box of cells.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace amp {

// A proxy's configuration derives from RunConfig and sets, in its constructor, the defaults it does
// not share (nobel's strategy, the variable counts, nobel's tolerance).
struct RunConfig {
  int num_vars = 8;
  int num_tsteps = 20;
  std::string strategy = "bspma";  // a registered strategy: how messages are cut (--strategy)
  std::string transport = "isend";
  int error_tol = 8;  // verification tolerance 10^-error_tol (relative)
  unsigned long long seed = 1;
  double progress_seconds = 5.0;
  // The share of the variables' sweeps made before each exchange (sweep_schedule.hpp): 1, every variable
  // is swept before every exchange; below 1, the application computes less between its exchanges.
  double sweeps_per_exchange = 1.0;
  double inject_fault = 0.0;  // testing only: the proxy's deliberate fault, which verification must catch
  // More accepted strategy values, for the line naming an unknown one (miniGhost's ", or miniGhost's 10, 11").
  std::string strategy_also;

  double tolerance() const;
};

// The help texts of the shared flags that say something proxy-specific.
struct RunFlagHelp {
  std::string seed;           // what the seed draws ("seed of the initial values")
  std::string inject_fault;   // what the fault does ("testing: add this much unaccounted mass once (must fail)")
  std::string strategy_also;  // more accepted values after the registry's list (miniGhost's " (or 10, 11)")
};

// Registers the shared flags on `app`, writing into `config`: --num_vars, --num_tsteps, --strategy
// (with --comm_method, its older name, accepted as an alias on the command line and in decks),
// --transport, --error_tol, --seed, --progress, and --inject_fault under the help's "Testing".
void add_run_options(CLI::App& app, RunConfig& config, const RunFlagHelp& help);

// Checks the shared values and canonicalises the strategy and transport names (any case in, lower
// case out; whether they are registered and fit is check_combination's, at start-up, alone);
// `strategy_also` is kept for the line naming an unknown strategy. Throws InputError naming the problem.
void check_run_config(RunConfig& config, const std::string& strategy_also = "");

// The shared keys of the results JSON's "config" (`strategy` names the strategy: the one key for it since
// the results' schema_version 2).
nlohmann::json run_config_json(const RunConfig& config);

// --scaling: weak (sizes per rank) or strong (global sizes); each proxy keeps its own default.
enum class Scaling { Weak, Strong };
const char* scaling_name(Scaling scaling);
// The mesh flags of the proxies on a box of cells (ghost, sage): --nx --ny --nz into the sizes, and
// --scaling into `scaling_text` (empty unless given), showing `fallback` as its default.
void add_mesh_options(CLI::App& app, int& nx, int& ny, int& nz, std::optional<std::string>& scaling_text,
                      Scaling fallback);
// `text` (any case) as a Scaling, `fallback` when not given; InputError naming the choices otherwise.
Scaling checked_scaling(const std::optional<std::string>& text, Scaling fallback);

}  // namespace amp
