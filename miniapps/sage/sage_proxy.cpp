// amp-sage on a given communicator (main.cpp gives it MPI_COMM_WORLD): the SAGE-like gather/scatter proxy. Parses
// flags/deck, partitions the cells along a space-filling curve, runs the face-flux time loop under the chosen comm
// strategy, verifies, reports (or, with --plan-only, stops after the set-up of one virtual rank and reports it).
#include "sage_proxy.hpp"

#include "cell_partition.hpp"
#include "local_mesh.hpp"
#include "sage_config.hpp"
#include "sage_memory.hpp"
#include "sage_report.hpp"
#include "sage_run.hpp"

#include <command_line.hpp>
#include <plan_only.hpp>
#include <run_proxy.hpp>

namespace amp::sage {

int sage_proxy_main(MPI_Comm comm, int argc, char** argv) {
  return amp::run_proxy("amp-sage", comm, argc, argv, [](const amp::Environment& env, int argc, char** argv) {
    CLI::App app{"amp-sage: SAGE-like gather/scatter proxy with pluggable communication strategies"};
    app.allow_config_extras(false);
    amp::sage::SageConfig config;
    amp::sage::RawSageFlags raw;
    amp::CommonOptions common;
    amp::PlanOptions plan_options;
    amp::add_common_options(app, common);
    amp::add_plan_options(app, plan_options);
    amp::sage::add_sage_options(app, config, raw);
    if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
    const amp::PlanTarget target = amp::checked_plan_target(plan_options, common, env);
    amp::check_common_options(app, common, env.tracing());
    amp::sage::finish_config(config, raw, target.ranks);
    if (!plan_options.plan_only) amp::check_run_memory(env, amp::sage::cell_bytes_per_rank(config, env.size()));
    amp::ReservedOutput results_file = amp::reserve_results_file(common.results_file, env);

    amp::PlanBuild build = amp::PlanBuild::started();
    auto setup = amp::sage::build_sage_setup(config, target.rank, target.ranks);
    build.stop();
    const amp::sage::LocalMesh& mesh = setup.mesh;
    build.extra = {{"global_cells", config.total_cells()}, {"owned_cells", mesh.owned}, {"ghost_cells", mesh.ghosts()}};
    if (amp::plan_only_done("amp-sage", plan_options, results_file, setup.plan, target, build)) return;

    auto measurements = amp::sage::run_sage(config, mesh, std::move(setup.plan), env);
    measurements.setup_seconds += build.seconds;
    const auto results = amp::sage::sage_results(config, mesh, measurements, env.size(), env.comm());
    amp::finish_run(env, results_file, results, measurements, amp::sage::print_summary);
  });
}

}  // namespace amp::sage
