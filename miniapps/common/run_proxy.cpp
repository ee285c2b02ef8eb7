// Error policy of every proxy: InputError and VerificationError are thrown on every rank at once, so
// rank 0 prints the line and all ranks exit; anything else may be one rank's alone, so MPI_Abort.
#include "run_proxy.hpp"

#include "errors.hpp"
#include "memory_check.hpp"
#include "results_file.hpp"
#include "synthesis.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <exception>

namespace amp {

int run_proxy(const char* name, int argc, char** argv,
              const std::function<void(const Environment&, int, char**)>& body) {
  Environment env(argc, argv);
  auto fail = [&](int code, const char* what) {
    if (env.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", name, what);
    return code;
  };
  try {
    if (Synthesis::requested(argc, argv)) {
      Synthesis synthesis(name, argc, argv, env);
      synthesis.run(argc, argv, body);
    } else {
      body(env, argc, argv);
    }
    return 0;
  } catch (const CLI::ParseError& e) {
    return fail(2, e.what());
  } catch (const InputError& e) {
    return fail(2, e.what());
  } catch (const VerificationError& e) {
    return fail(1, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error on rank %d: %s\n", name, env.rank(), e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    return 3;
  }
}

void check_run_memory(const Environment& env, double field_bytes_per_rank) {
  check_node_memory(env.synthesis() != nullptr ? 0.0 : field_bytes_per_rank);
}

void finish_run(const Environment& env, const std::string& results_file, const nlohmann::json& results,
                const LoopMeasurements& measurements, const std::function<void(const nlohmann::json&)>& print_summary) {
  if (env.synthesis() != nullptr) {
    if (env.rank() == 0) env.synthesis()->keep_results(results_file, results);
    return;
  }
  if (env.rank() == 0) print_summary(results);
  write_results_file(results_file, results, env.rank());
  if (!measurements.verified) throw VerificationError(measurements.failure);
}

}  // namespace amp
