// SPDX-License-Identifier: BSD-3-Clause
// amp-sage on a given communicator: the SAGE-like gather/scatter proxy. Its pieces of the proxy body
// (proxy_main.hpp): the flags and deck, the cells cut along a space-filling curve, the face-flux time
// loop, the results.
#include <amp/miniapps/sage/sage_proxy.hpp>

#include <amp/miniapps/sage/local_mesh.hpp>
#include <amp/miniapps/sage/sage_config.hpp>
#include <amp/miniapps/sage/sage_memory.hpp>
#include <amp/miniapps/sage/sage_report.hpp>
#include <amp/miniapps/sage/sage_run.hpp>

#include <amp/miniapps/common/proxy_main.hpp>

namespace amp::sage {

namespace {

struct SagePieces {
  static constexpr const char* kName = "amp-sage";
  static constexpr const char* kDescription =
      "amp-sage: SAGE-like gather/scatter proxy with pluggable communication strategies";

  struct Flags {
    SageConfig config;
    RawSageFlags raw;
  };
  static void add_flags(CLI::App& app, Flags& flags) { add_sage_options(app, flags.config, flags.raw); }
  static const SageConfig& checked_config(Flags& flags, int ranks) {
    finish_config(flags.config, flags.raw, ranks);
    return flags.config;
  }
  static double bytes_per_rank(const SageConfig& config, int ranks) { return cell_bytes_per_rank(config, ranks); }
  static double setup_bytes_per_rank(const SageConfig& config, int ranks) { return mesh_bytes_per_rank(config, ranks); }

  static SageSetup build_setup(const SageConfig& config, int rank, int ranks) {
    return build_sage_setup(config, rank, ranks);
  }
  static const comm::ExchangePlan& plan_of(const SageSetup& setup) { return setup.plan; }
  static nlohmann::json plan_sizes(const SageConfig& config, const SageSetup& setup) {
    const LocalMesh& mesh = setup.mesh;
    return {{"global_cells", config.total_cells()}, {"owned_cells", mesh.owned}, {"ghost_cells", mesh.ghosts()}};
  }

  // The set-up time in the results is the plan's (built above) and the loop's own.
  static SageMeasurements run(const SageConfig& config, SageSetup& setup, const PlanBuild& build,
                              const Environment& env, const comm::Combination& combination) {
    SageMeasurements m = run_sage(config, setup.mesh, std::move(setup.plan), env, combination);
    m.setup_seconds += build.seconds;
    return m;
  }
  static nlohmann::json results(const SageConfig& config, const SageSetup& setup, const SageMeasurements& m,
                                const Environment& env) {
    return sage_results(config, setup.mesh, m, env.size(), env.comm());
  }
  static void print_summary(const nlohmann::json& results) { sage::print_summary(results); }
};

}  // namespace

int sage_proxy_main(MPI_Comm comm, int argc, char** argv) { return proxy_main<SagePieces>(comm, argc, argv); }

}  // namespace amp::sage
