// SPDX-License-Identifier: BSD-3-Clause
// Running and reporting one micro-benchmark.
#include <amp/miniapps/micro/run_benchmark.hpp>

#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/machine_load.hpp>
#include <amp/miniapps/common/reserved_output.hpp>
#include <amp/miniapps/micro/run_context.hpp>
#include <amp/trace/format/json_schema_version.hpp>

#include <fmt/format.h>

#include <iostream>

namespace amp::micro {

void run_benchmark(Benchmark& benchmark, const RunSettings& settings, const TraceRequest& trace,
                   const Environment& environment, MPI_Comm comm) {
  // Both files are reserved before anything runs (reserved_output.hpp); InputError on every rank.
  ReservedOutput csv_file(settings.csv_file, "CSV file", environment.rank() == 0, environment.comm());
  ReservedOutput results_file(settings.results_file, "results file", environment.rank() == 0, environment.comm());
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const RunContext context = describe_run_context(comm);
  if (rank == 0) {
    std::cout << fmt::format(
                     "amp-micro {}: {}\n{} ranks on {} node(s), at most {} per node, {} host thread(s) per rank; {}\n",
                     benchmark.name(), benchmark.summary(), context.ranks, context.nodes, context.max_ranks_per_node,
                     context.host_threads_per_rank, context.mpi_library)
              << std::flush;
  }
  environment.begin_traced_region();
  const ResultTable table = benchmark.run(settings, comm);
  environment.end_traced_region();
  const bool verified = table.all_verified();
  if (rank == 0) {
    table.print(std::cout);
    std::cout << (verified ? "verification: passed\n" : "verification: FAILED\n") << std::flush;
  }
  std::string not_written = csv_file.write(rank == 0 ? table.csv_text() : "");
  nlohmann::ordered_json results;
  results["schema_version"] = kJsonSchemaVersion;
  results["proxy"] = "amp-micro";
  results["benchmark"] = benchmark.name();
  results["summary"] = benchmark.summary();
  results["run"] = context.to_json();
  results["configuration"] = run_settings_json(settings, benchmark, trace.directory);
  results["columns"] = table.columns();
  results["rows"] = table.rows_json();
  results["verified"] = verified;
  results["machine_load"] = machine_load_json(environment.comm(), environment.load_at_start());
  const std::string results_not_written = results_file.write(results.dump(2) + '\n');
  if (not_written.empty()) not_written = results_not_written;
  if (!verified) {
    throw VerificationError(benchmark.name() + ": verification failed (see the 'verified' column)");
  }
  if (!not_written.empty()) throw ResultsFileError(not_written);
}

}  // namespace amp::micro
