// amp-nobel on a given communicator (main.cpp gives it MPI_COMM_WORLD): the xNOBEL-like small-message proxy with block
// AMR. Parses flags/deck, runs the time loop under the chosen comm strategy, verifies, prints the summary and writes
// JSON results (or, with --plan-only, stops after the set-up of one virtual rank and reports it).
#include "nobel_proxy.hpp"

#include "nobel_config.hpp"
#include "nobel_memory.hpp"
#include "nobel_report.hpp"
#include "nobel_run.hpp"

#include <command_line.hpp>
#include <plan_only.hpp>
#include <run_proxy.hpp>

namespace amp::nobel {

int nobel_proxy_main(MPI_Comm comm, int argc, char** argv) {
  return amp::run_proxy("amp-nobel", comm, argc, argv, [](const amp::Environment& env, int argc, char** argv) {
    CLI::App app{"amp-nobel: xNOBEL-like block-AMR proxy sending many small messages"};
    app.allow_config_extras(false);
    amp::nobel::NobelConfig config;
    amp::CommonOptions common;
    amp::PlanOptions plan_options;
    amp::add_common_options(app, common);
    amp::add_plan_options(app, plan_options);
    amp::nobel::add_nobel_options(app, config);
    if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
    const amp::PlanTarget target = amp::checked_plan_target(plan_options, common, env);
    amp::check_common_options(app, common, env.tracing());
    amp::nobel::finish_config(config, target.ranks);
    if (!plan_options.plan_only) amp::check_run_memory(env, amp::nobel::block_bytes_per_rank(config, env.size()));
    amp::ReservedOutput results_file = amp::reserve_results_file(common.results_file, env);

    amp::PlanBuild build = amp::PlanBuild::started();
    auto setup = amp::nobel::build_nobel_setup(config, target.rank, target.ranks);
    build.stop();
    build.extra = {{"global_blocks", setup.mesh.size()},
                   {"local_blocks", setup.exchange.local_blocks},
                   {"mesh_bytes", setup.mesh.memory_bytes()}};
    if (amp::plan_only_done("amp-nobel", plan_options, results_file, setup.exchange.plan, target, build)) return;

    const auto measurements = amp::nobel::run_nobel(config, std::move(setup), env);
    const auto results = amp::nobel::nobel_results(config, measurements, env.size(), env.comm());
    amp::finish_run(env, results_file, results, measurements, amp::nobel::print_summary);
  });
}

}  // namespace amp::nobel
