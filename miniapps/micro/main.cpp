// amp-micro: one executable, one subcommand per micro-benchmark of the seed papers
// (mpiexec -n 2 amp-micro pingpong --max-size 1MiB --results r.json).
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/memory_check.hpp>
#include <amp/miniapps/micro/run_benchmark.hpp>
#include <amp/miniapps/common/run_proxy.hpp>

#include <cstring>
#include <string>

namespace {

using amp::micro::Benchmark;

std::string benchmark_names(const std::vector<std::unique_ptr<Benchmark>>& benchmarks) {
  std::string names;
  for (const auto& benchmark : benchmarks) names += (names.empty() ? "" : ", ") + benchmark->name();
  return names;
}

// CLI11 would call an unknown subcommand an "unexpected argument"; say what the user meant instead.
void reject_unknown_benchmark(int argc, char** argv, const std::vector<std::unique_ptr<Benchmark>>& benchmarks) {
  if (argc < 2 || argv[1][0] == '-') return;
  for (const auto& benchmark : benchmarks) {
    if (benchmark->name() == argv[1]) return;
  }
  throw amp::InputError("unknown benchmark '" + std::string(argv[1]) + "'; choose one of " +
                        benchmark_names(benchmarks));
}

void run_micro(const amp::Environment& env, int argc, char** argv) {
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
  reject_unknown_benchmark(argc, argv, benchmarks);
  if (!amp::parse_command_line(app, argc, argv, env.rank())) return;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    if (!commands[i]->parsed()) continue;
    amp::check_output_flags(*commands[i], {"--results", "--csv"}, settings[i].trace_dir, settings[i].trace_setup,
                            env.tracing());
    amp::micro::validate_run_settings(settings[i], *benchmarks[i], env.size());
    amp::check_node_memory(MPI_COMM_WORLD, benchmarks[i]->bytes_per_rank(settings[i]));
    amp::micro::run_benchmark(*benchmarks[i], settings[i], env, MPI_COMM_WORLD);
  }
}

}  // namespace

int main(int argc, char** argv) { return amp::run_proxy("amp-micro", MPI_COMM_WORLD, argc, argv, run_micro); }
