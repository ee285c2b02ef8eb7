// amp-ghost: the miniGhost-style stencil proxy (CTH). Parses flags/deck, decomposes, runs the time loop
// under the chosen comm strategy, verifies, prints the summary and writes JSON results.
#include "decomposition.hpp"
#include "ghost_config.hpp"
#include "ghost_report.hpp"
#include "ghost_run.hpp"

#include <command_line.hpp>
#include <errors.hpp>
#include <results_file.hpp>
#include <run_proxy.hpp>

int main(int argc, char** argv) {
  return amp::run_proxy("amp-ghost", argc, argv, [](const amp::Environment& env, int argc, char** argv) {
    CLI::App app{"amp-ghost: miniGhost-style stencil proxy with pluggable communication strategies"};
    app.allow_config_extras(false);
    amp::ghost::GhostConfig config;
    amp::ghost::RawGhostFlags raw;
    amp::CommonOptions common;
    amp::add_common_options(app, common);
    amp::ghost::add_ghost_options(app, config, raw);
    if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
    amp::ghost::finish_config(config, raw, env.size());
    amp::check_results_path(common.results_file);
    const auto decomposition = amp::ghost::decompose(config, env.rank(), env.size());

    const auto measurements = amp::ghost::run_ghost(config, decomposition, env);
    const auto results = amp::ghost::ghost_results(config, decomposition, measurements, env.size());
    if (env.rank() == 0) amp::ghost::print_summary(results);
    amp::write_results_file(common.results_file, results, env.rank());
    if (!measurements.verified) throw amp::VerificationError(measurements.failure);
  });
}
