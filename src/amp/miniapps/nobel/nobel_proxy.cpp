// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel on a given communicator: the xNOBEL-like small-message proxy with block AMR. Its pieces of
// the proxy body (proxy_main.hpp): the flags and deck, the starting mesh, the AMR time loop, the results.
#include <amp/miniapps/nobel/nobel_proxy.hpp>

#include <amp/miniapps/nobel/nobel_config.hpp>
#include <amp/miniapps/nobel/nobel_memory.hpp>
#include <amp/miniapps/nobel/nobel_report.hpp>
#include <amp/miniapps/nobel/nobel_run.hpp>

#include <amp/miniapps/common/proxy_main.hpp>

namespace amp::nobel {

namespace {

struct NobelPieces {
  static constexpr const char* kName = "amp-nobel";
  static constexpr const char* kDescription = "amp-nobel: xNOBEL-like block-AMR proxy sending many small messages";

  using Flags = NobelConfig;
  static void add_flags(CLI::App& app, NobelConfig& config) { add_nobel_options(app, config); }
  static const NobelConfig& checked_config(NobelConfig& config, int ranks) {
    finish_config(config, ranks);
    return config;
  }
  static double bytes_per_rank(const NobelConfig& config, int ranks) { return block_bytes_per_rank(config, ranks); }
  static double setup_bytes_per_rank(const NobelConfig& config, int) { return mesh_key_bytes(config); }

  static NobelSetup build_setup(const NobelConfig& config, int rank, int ranks) {
    return build_nobel_setup(config, rank, ranks);
  }
  static const comm::ExchangePlan& plan_of(const NobelSetup& setup) { return setup.exchange.plan; }
  static nlohmann::json plan_sizes(const NobelConfig&, const NobelSetup& setup) {
    return {{"global_blocks", setup.mesh.size()},
            {"local_blocks", setup.exchange.local_blocks},
            {"mesh_bytes", setup.mesh.memory_bytes()}};
  }

  // The loop takes the whole set-up (its mesh changes at every AMR step).
  static NobelMeasurements run(const NobelConfig& config, NobelSetup& setup, const PlanBuild&, const Environment& env,
                               const comm::Combination& combination) {
    return run_nobel(config, std::move(setup), env, combination);
  }
  static nlohmann::json results(const NobelConfig& config, const NobelSetup&, const NobelMeasurements& m,
                                const Environment& env) {
    return nobel_results(config, m, env.size(), env.comm());
  }
  static void print_summary(const nlohmann::json& results) { nobel::print_summary(results); }
};

}  // namespace

int nobel_proxy_main(MPI_Comm comm, int argc, char** argv) { return proxy_main<NobelPieces>(comm, argc, argv); }

}  // namespace amp::nobel
