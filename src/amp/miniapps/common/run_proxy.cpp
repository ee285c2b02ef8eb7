// SPDX-License-Identifier: BSD-3-Clause
// Error policy of every proxy: InputError, VerificationError and ResultsFileError are thrown on every
// rank at once, so rank 0 prints the line and all ranks exit; anything else may be one rank's alone,
// so MPI_Abort. A trace the library could not write turns a clean exit into 5 after MPI_Finalize.
#include <amp/miniapps/common/run_proxy.hpp>

#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/machine_load.hpp>
#include <amp/miniapps/common/memory_check.hpp>
#include <amp/miniapps/common/stop_signals.hpp>
#include <amp/miniapps/common/synthesis.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/trace/format/json_schema_version.hpp>
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <exception>

namespace amp {

namespace {

ExitCode run_body(const char* name, const Environment& env, const StartRequest& request,
                  const std::function<void(const Environment&)>& body) {
  auto fail = [&](ExitCode code, const char* what) {
    if (env.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", name, what);
    return code;
  };
  try {
    if (!env.startup_problem().empty()) throw InputError(env.startup_problem());
    if (!request.problem.empty()) throw InputError(request.problem);
    if (request.help) {
      if (env.rank() == 0) std::fputs(request.help_text.c_str(), stdout);
      return ExitCode::kSuccess;
    }
    if (request.older_strategy_name && env.rank() == 0)
      std::fprintf(stderr, "%s: warning: %s\n", name, kOlderStrategyName);
    if (request.synthesis.asked) {
      {
        Synthesis synthesis(name, request, env);
        synthesis.run(request, body);
      }
      // A signal after the last check: the synthesis is complete and kept, and the process still dies by it.
      if (const int signal = stop_signals::pending(); signal != 0) stop_signals::die_by(signal);
    } else {
      body(env);
    }
    return ExitCode::kSuccess;
  } catch (const CLI::ParseError& e) {
    return fail(ExitCode::kBadInput, e.what());
  } catch (const CombinationRefused& e) {
    return fail(ExitCode::kCombinationRefused, e.what());
  } catch (const InputError& e) {
    return fail(ExitCode::kBadInput, e.what());
  } catch (const VerificationError& e) {
    return fail(ExitCode::kVerificationFailed, e.what());
  } catch (const ResultsFileError& e) {
    return fail(ExitCode::kResultsNotWritten, e.what());
  } catch (const TraceFileError& e) {
    return fail(ExitCode::kTraceNotWritten, e.what());
  } catch (const stop_signals::Stopped& stopped) {
    stop_signals::die_by(stopped.signal);  // the synthesis removed what it began while the stack unwound
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error on rank %d: %s\n", name, env.rank(), e.what());
    std::fflush(stderr);
    MPI_Abort(env.comm(), exit_status(ExitCode::kAborted));
    return ExitCode::kAborted;
  }
}

}  // namespace

int run_proxy(const char* name, MPI_Comm comm, const StartRequest& request,
              const std::function<void(const Environment&)>& body) {
  ExitCode code = ExitCode::kSuccess;
  {
    Environment env(request, comm);
    code = run_body(name, env, request, body);
    if (code == ExitCode::kBadInput || code == ExitCode::kCombinationRefused)
      env.discard_trace();  // nothing written before the configuration is accepted
  }  // MPI_Finalize (when run_proxy started MPI): the tracing library closes this rank's trace file here
  if (code == ExitCode::kSuccess && amp_dumpi_trace_failed() != 0) code = ExitCode::kTraceNotWritten;
  return exit_status(code);
}

void check_run_memory(const Environment& env, bool plan_only, double run_bytes, double setup_bytes) {
  const bool synthesis = env.synthesis() != nullptr;
  check_node_memory(env.comm(), plan_only || synthesis ? setup_bytes : run_bytes, synthesis);
}

ReservedOutput reserve_results_file(const std::string& path, const Environment& env) {
  if (path.empty()) return {};
  if (env.synthesis() != nullptr)
    return env.rank() == 0 ? ReservedOutput(path, "results file", true, MPI_COMM_NULL) : ReservedOutput();
  return ReservedOutput(path, "results file", env.rank() == 0, env.comm());
}

void finish_run(const Environment& env, ReservedOutput& results_file, nlohmann::json results,
                const LoopMeasurements& measurements, const std::function<void(const nlohmann::json&)>& print_summary) {
  if (env.synthesis() != nullptr) {
    if (env.rank() == 0) env.synthesis()->keep_results(std::move(results_file), results);
    return;
  }
  results["schema_version"] = kJsonSchemaVersion;
  results["machine_load"] = machine_load_json(env.comm(), env.load_at_start());
  if (env.rank() == 0) print_summary(results);
  const std::string not_written = results_file.write(results.dump(2) + '\n');
  if (!measurements.verified) throw VerificationError(measurements.failure);
  if (!not_written.empty()) throw ResultsFileError(not_written);
}

}  // namespace amp
