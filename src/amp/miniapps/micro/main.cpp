// SPDX-License-Identifier: BSD-3-Clause
// amp-micro: one executable, one subcommand per micro-benchmark of the seed papers
// (mpiexec -n 2 amp-micro pingpong --max-size 1MiB --results r.json).
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/memory_check.hpp>
#include <amp/miniapps/micro/run_benchmark.hpp>
#include <amp/miniapps/common/run_proxy.hpp>
#include <amp/miniapps/common/start_request.hpp>

#include <string>

namespace {

int run_micro(int argc, char** argv) {
  auto benchmarks = amp::micro::all_benchmarks();
  CLI::App app{"amp-micro: the seed papers' micro-benchmarks; each subcommand prints a table and writes CSV/JSON"};
  app.require_subcommand(1, 1);
  std::vector<amp::micro::RunSettings> settings(benchmarks.size());
  std::vector<CLI::App*> commands;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    CLI::App* command = app.add_subcommand(benchmarks[i]->name(), benchmarks[i]->summary());
    amp::micro::add_run_options(*command, *benchmarks[i], settings[i]);
    benchmarks[i]->add_options(*command);
    commands.push_back(command);
  }
  // An unknown subcommand is named as "unknown benchmark 'x'; choose one of ..." (start_request.hpp).
  const amp::StartRequest request = amp::parse_start_request(app, argc, argv, "benchmark");
  return amp::run_proxy("amp-micro", MPI_COMM_WORLD, request, [&](const amp::Environment& env) {
    for (std::size_t i = 0; i < benchmarks.size(); ++i) {
      if (!commands[i]->parsed()) continue;
      amp::check_output_flags(*commands[i], {"--results", "--csv"}, request.trace, env.tracing());
      amp::micro::validate_run_settings(settings[i], *benchmarks[i], env.size());
      amp::check_node_memory(MPI_COMM_WORLD, benchmarks[i]->bytes_per_rank(settings[i]));
      amp::micro::run_benchmark(*benchmarks[i], settings[i], request.trace, env, MPI_COMM_WORLD);
    }
  });
}

}  // namespace

int main(int argc, char** argv) { return run_micro(argc, argv); }
