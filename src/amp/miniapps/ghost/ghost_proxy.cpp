// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost on a given communicator: the miniGhost-style stencil proxy (CTH). Its pieces of the proxy
// body (proxy_main.hpp): the flags and deck, the decomposition, the stencil time loop, the results.
#include <amp/miniapps/ghost/ghost_proxy.hpp>

#include <amp/miniapps/ghost/decomposition.hpp>
#include <amp/miniapps/ghost/ghost_config.hpp>
#include <amp/miniapps/ghost/ghost_memory.hpp>
#include <amp/miniapps/ghost/ghost_report.hpp>
#include <amp/miniapps/ghost/ghost_run.hpp>

#include <amp/miniapps/common/proxy_main.hpp>

namespace amp::ghost {

namespace {

struct GhostPieces {
  static constexpr const char* kName = "amp-ghost";
  static constexpr const char* kDescription =
      "amp-ghost: miniGhost-style stencil proxy with pluggable communication strategies";

  struct Flags {
    GhostConfig config;
    RawGhostFlags raw;
  };
  static void add_flags(CLI::App& app, Flags& flags) { add_ghost_options(app, flags.config, flags.raw); }
  static const GhostConfig& checked_config(Flags& flags, int ranks) {
    finish_config(flags.config, flags.raw, ranks);
    return flags.config;
  }
  static double bytes_per_rank(const GhostConfig& config, int ranks) { return field_bytes_per_rank(config, ranks); }
  static double setup_bytes_per_rank(const GhostConfig&, int) { return 0; }  // a decomposition and a plan

  static GhostSetup build_setup(const GhostConfig& config, int rank, int ranks) {
    return build_ghost_setup(config, rank, ranks);
  }
  static const comm::ExchangePlan& plan_of(const GhostSetup& setup) { return setup.plan; }
  static nlohmann::json plan_sizes(const GhostConfig&, const GhostSetup& setup) {
    const Decomposition& d = setup.decomposition;
    return {{"block", {d.block.nx, d.block.ny, d.block.nz}}, {"process_grid", d.grid}};
  }

  static GhostMeasurements run(const GhostConfig& config, GhostSetup& setup, const PlanBuild&, const Environment& env,
                               const comm::Combination& combination) {
    return run_ghost(config, setup.decomposition, std::move(setup.plan), env, combination);
  }
  static nlohmann::json results(const GhostConfig& config, const GhostSetup& setup, const GhostMeasurements& m,
                                const Environment& env) {
    return ghost_results(config, setup.decomposition, m, env.size(), env.comm());
  }
  static void print_summary(const nlohmann::json& results) { ghost::print_summary(results); }
};

}  // namespace

int ghost_proxy_main(MPI_Comm comm, int argc, char** argv) { return proxy_main<GhostPieces>(comm, argc, argv); }

}  // namespace amp::ghost
