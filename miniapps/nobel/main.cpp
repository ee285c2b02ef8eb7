// amp-nobel: the xNOBEL-like small-message proxy with block AMR. Parses flags/deck, runs the time loop
// under the chosen comm strategy, verifies, prints the summary and writes JSON results.
#include "nobel_config.hpp"
#include "nobel_report.hpp"
#include "nobel_run.hpp"

#include <command_line.hpp>
#include <errors.hpp>
#include <results_file.hpp>
#include <run_proxy.hpp>

int main(int argc, char** argv) {
  return amp::run_proxy("amp-nobel", argc, argv, [](const amp::Environment& env, int argc, char** argv) {
    CLI::App app{"amp-nobel: xNOBEL-like block-AMR proxy sending many small messages"};
    app.allow_config_extras(false);
    amp::nobel::NobelConfig config;
    amp::CommonOptions common;
    amp::add_common_options(app, common);
    amp::nobel::add_nobel_options(app, config);
    if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
    amp::nobel::finish_config(config, env.size());
    amp::check_results_path(common.results_file);

    const auto measurements = amp::nobel::run_nobel(config, env);
    const auto results = amp::nobel::nobel_results(config, measurements, env.size());
    if (env.rank() == 0) amp::nobel::print_summary(results);
    amp::write_results_file(common.results_file, results, env.rank());
    if (!measurements.verified) throw amp::VerificationError(measurements.failure);
  });
}
