// SPDX-License-Identifier: BSD-3-Clause
// The shared flags of the proxies and their checks, written once; each proxy adds its own on top.
#include <amp/miniapps/common/run_config.hpp>

#include <amp/miniapps/common/config_checks.hpp>

#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <fmt/format.h>

#include <cmath>

namespace amp {

double RunConfig::tolerance() const { return std::pow(10.0, -error_tol); }

void add_run_options(CLI::App& app, RunConfig& c, const RunFlagHelp& help) {
  app.add_option("--num_vars", c.num_vars, "variables per cell")->capture_default_str();
  app.add_option("--num_tsteps", c.num_tsteps, "time steps")->capture_default_str();
  app.add_option(
         "--strategy", c.strategy,
         "communication strategy: " + comm::strategy_list() + help.strategy_also + " (--comm_method: its older name)")
      ->capture_default_str();
  app.add_option("--transport", c.transport, comm::transport_list())->capture_default_str();
  app.add_option("--error_tol", c.error_tol, "verification tolerance is 10^-error_tol")->capture_default_str();
  app.add_option("--seed", c.seed, help.seed)->capture_default_str();
  app.add_option("--sweeps_per_exchange", c.sweeps_per_exchange,
                 "share of the variables' sweeps made before each exchange, in (0, 1] (1: every variable "
                 "before every exchange; below 1, each variable in turn)")
      ->capture_default_str();
  app.add_option("--progress", c.progress_seconds, "seconds between progress lines (0: none)")->capture_default_str();
  // In its own help group, not hidden: CLI11 names no hidden option in its errors (": 'nan' is ...").
  app.add_option("--inject_fault", c.inject_fault, help.inject_fault)->group("Testing");
}

void check_run_config(RunConfig& c, const std::string& strategy_also) {
  c.strategy = lowercase(c.strategy);
  c.transport = lowercase(c.transport);
  c.strategy_also = strategy_also;
  require(c.num_vars >= 1, fmt::format("num_vars must be at least 1 (got {})", c.num_vars));
  require(c.num_tsteps >= 1, fmt::format("num_tsteps must be at least 1 (got {})", c.num_tsteps));
  require(c.error_tol >= 1 && c.error_tol <= 15, fmt::format("error_tol must be 1..15 (got {})", c.error_tol));
  require(c.progress_seconds >= 0, "progress must be >= 0 seconds");
  require(std::isfinite(c.sweeps_per_exchange) && c.sweeps_per_exchange > 0 && c.sweeps_per_exchange <= 1,
          fmt::format("sweeps_per_exchange must be above 0 and at most 1 (got {})", c.sweeps_per_exchange));
}

nlohmann::json run_config_json(const RunConfig& c) {
  return {{"num_vars", c.num_vars},
          {"num_tsteps", c.num_tsteps},
          {"strategy", c.strategy},
          {"transport", c.transport},
          {"error_tol", c.error_tol},
          {"seed", c.seed},
          {"sweeps_per_exchange", c.sweeps_per_exchange}};
}

const char* scaling_name(Scaling scaling) { return scaling == Scaling::Strong ? "strong" : "weak"; }

void add_mesh_options(CLI::App& app, int& nx, int& ny, int& nz, std::optional<std::string>& scaling_text,
                      Scaling fallback) {
  for (const auto& [axis, cells] : {std::pair<const char*, int*>{"x", &nx}, {"y", &ny}, {"z", &nz}})
    app.add_option(fmt::format("--n{}", axis), *cells,
                   fmt::format("cells in {}: per rank with --scaling weak, global with --scaling strong", axis))
        ->capture_default_str();
  app.add_option("--scaling", scaling_text, "weak (sizes per rank) or strong (global sizes)")
      ->default_str(scaling_name(fallback));
}

Scaling checked_scaling(const std::optional<std::string>& text, Scaling fallback) {
  if (!text) return fallback;
  const std::string s = lowercase(*text);
  require(s == "weak" || s == "strong", fmt::format("unknown scaling '{}' (use weak or strong)", *text));
  return s == "strong" ? Scaling::Strong : Scaling::Weak;
}

}  // namespace amp
