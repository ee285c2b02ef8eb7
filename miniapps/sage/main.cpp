// amp-sage: the SAGE-like gather/scatter proxy. Parses flags/deck, partitions the cells along a
// space-filling curve, runs the face-flux time loop under the chosen comm strategy, verifies, reports.
#include "cell_partition.hpp"
#include "local_mesh.hpp"
#include "sage_config.hpp"
#include "sage_report.hpp"
#include "sage_run.hpp"

#include <command_line.hpp>
#include <comm/stopwatch.hpp>
#include <errors.hpp>
#include <results_file.hpp>
#include <run_proxy.hpp>

int main(int argc, char** argv) {
  return amp::run_proxy("amp-sage", argc, argv, [](const amp::Environment& env, int argc, char** argv) {
    CLI::App app{"amp-sage: SAGE-like gather/scatter proxy with pluggable communication strategies"};
    app.allow_config_extras(false);
    amp::sage::SageConfig config;
    amp::sage::RawSageFlags raw;
    amp::CommonOptions common;
    amp::add_common_options(app, common);
    amp::sage::add_sage_options(app, config, raw);
    if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
    amp::sage::finish_config(config, raw, env.size());
    amp::check_results_path(common.results_file);

    const double start = amp::now_seconds();
    const amp::sage::CellPartition partition({config.global_cells}, config.partition, env.size());
    const amp::sage::LocalMesh mesh = amp::sage::build_local_mesh(partition, env.rank());
    const double partition_seconds = amp::now_seconds() - start;

    auto measurements = amp::sage::run_sage(config, mesh, env);
    measurements.setup_seconds += partition_seconds;
    const auto results = amp::sage::sage_results(config, mesh, measurements, env.size());
    if (env.rank() == 0) amp::sage::print_summary(results);
    amp::write_results_file(common.results_file, results, env.rank());
    if (!measurements.verified) throw amp::VerificationError(measurements.failure);
  });
}
