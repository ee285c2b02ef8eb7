// amp-ghost on a given communicator (main.cpp gives it MPI_COMM_WORLD): the miniGhost-style stencil proxy (CTH). Parses
// flags/deck, decomposes, runs the time loop under the chosen comm strategy, verifies, prints the summary and writes
// JSON results (or, with --plan-only, stops after the set-up of one virtual rank and reports it; with --synthesize,
// runs once per virtual rank to write their traces).
#include "ghost_proxy.hpp"

#include "decomposition.hpp"
#include "ghost_config.hpp"
#include "ghost_memory.hpp"
#include "ghost_report.hpp"
#include "ghost_run.hpp"

#include <command_line.hpp>
#include <plan_only.hpp>
#include <run_proxy.hpp>

namespace amp::ghost {

int ghost_proxy_main(MPI_Comm comm, int argc, char** argv) {
  return amp::run_proxy("amp-ghost", comm, argc, argv, [](const amp::Environment& env, int argc, char** argv) {
    CLI::App app{"amp-ghost: miniGhost-style stencil proxy with pluggable communication strategies"};
    app.allow_config_extras(false);
    amp::ghost::GhostConfig config;
    amp::ghost::RawGhostFlags raw;
    amp::CommonOptions common;
    amp::PlanOptions plan_options;
    amp::add_common_options(app, common);
    amp::add_plan_options(app, plan_options);
    amp::ghost::add_ghost_options(app, config, raw);
    if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
    const amp::PlanTarget target = amp::checked_plan_target(plan_options, common, env);
    amp::check_common_options(app, common, env.tracing());
    amp::ghost::finish_config(config, raw, target.ranks);
    if (!plan_options.plan_only) amp::check_run_memory(env, amp::ghost::field_bytes_per_rank(config, env.size()));
    amp::ReservedOutput results_file = amp::reserve_results_file(common.results_file, env);

    amp::PlanBuild build = amp::PlanBuild::started();
    auto setup = amp::ghost::build_ghost_setup(config, target.rank, target.ranks);
    build.stop();
    const auto& d = setup.decomposition;
    build.extra = {{"block", {d.block.nx, d.block.ny, d.block.nz}}, {"process_grid", d.grid}};
    if (amp::plan_only_done("amp-ghost", plan_options, results_file, setup.plan, target, build)) return;

    const auto measurements = amp::ghost::run_ghost(config, d, std::move(setup.plan), env);
    const auto results = amp::ghost::ghost_results(config, d, measurements, env.size(), env.comm());
    amp::finish_run(env, results_file, results, measurements, amp::ghost::print_summary);
  });
}

}  // namespace amp::ghost
