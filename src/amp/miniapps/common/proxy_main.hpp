// SPDX-License-Identifier: BSD-3-Clause
// The body every proxy runs on a communicator, written once: flags and deck (read once, before MPI
// starts: start_request.hpp), the checked configuration,
// the set-up (or --plan-only's report of it), the time loop and the results. A proxy names its pieces
// in one type (ghost_proxy.cpp's GhostPieces) and its <proxy>_proxy_main is proxy_main<ThatType>.
#pragma once

#include <amp/miniapps/common/combination_check.hpp>
#include <amp/miniapps/common/combination_list.hpp>
#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/plan_only.hpp>
#include <amp/miniapps/common/reserved_output.hpp>
#include <amp/miniapps/common/run_proxy.hpp>
#include <amp/miniapps/common/start_request.hpp>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

namespace amp {

// What `Pieces` provides, all static:
//   kName ("amp-ghost") and kDescription (the title of --help);
//   Flags, what the proxy's flags fill: add_flags(app, flags), and checked_config(flags, ranks), the
//     configuration validated for that many ranks (InputError otherwise);
//   bytes_per_rank(config, ranks): what a real run allocates per rank, fields included, and
//     setup_bytes_per_rank(config, ranks): what build_setup alone allocates (check_run_memory);
//   build_setup(config, rank, ranks), plan_of(setup), plan_sizes(config, setup): the set-up of one rank,
//     its exchange plan, and the sizes --plan-only reports with it;
//   run(config, setup, build, env, combination): the time loop's measurements (a LoopMeasurements), its
//     strategies built from the pair checked at start-up (combination_check.hpp);
//   results(config, setup, measurements, env): the JSON results (collective), print_summary(results); the
//     transport's own word on whether its traces replay is added to their config here, from the checked pair.
template <class Pieces>
int proxy_main(MPI_Comm comm, int argc, char** argv) {
  CLI::App app{Pieces::kDescription};
  app.allow_config_extras(false);
  typename Pieces::Flags parsed_flags;
  CommonOptions common;
  PlanOptions plan_options;
  ListingOptions listing;
  add_common_options(app, common);
  add_plan_options(app, plan_options);
  add_listing_options(app, listing);
  Pieces::add_flags(app, parsed_flags);
  const StartRequest request = parse_start_request(app, argc, argv);
  return run_proxy(Pieces::kName, comm, request, [&](const Environment& env) {
    typename Pieces::Flags flags = parsed_flags;  // each virtual rank of a synthesis checks its own copy
    const PlanTarget target = checked_plan_target(plan_options, request.trace, env);
    check_output_flags(app, {"--results"}, request.trace, env.tracing());
    const auto& config = Pieces::checked_config(flags, target.ranks);
    const comm::Combination combination =
        check_combination(config.strategy, config.transport, env, config.strategy_also);
    if (print_combination_list(Pieces::kName, listing, env)) return;
    check_run_memory(env, plan_options.plan_only, Pieces::bytes_per_rank(config, target.ranks),
                     Pieces::setup_bytes_per_rank(config, target.ranks));
    ReservedOutput results_file = reserve_results_file(common.results_file, env);

    PlanBuild build = PlanBuild::started();
    auto setup = Pieces::build_setup(config, target.rank, target.ranks);
    build.stop();
    build.extra = Pieces::plan_sizes(config, setup);
    if (plan_only_done(Pieces::kName, plan_options, results_file, Pieces::plan_of(setup), target, build)) return;

    const auto measurements = Pieces::run(config, setup, build, env, combination);
    nlohmann::json results = Pieces::results(config, setup, measurements, env);
    results["config"]["replayable"] = combination.transport()->tracing.replayable;  // its registration's word
    finish_run(env, results_file, results, measurements, Pieces::print_summary);
  });
}

}  // namespace amp
