// SPDX-License-Identifier: BSD-3-Clause
// Error policy of every proxy: InputError, VerificationError and ResultsFileError are thrown on every
// rank at once, so rank 0 prints the line and all ranks exit; anything else may be one rank's alone,
// so MPI_Abort. A trace the library could not write turns a clean exit into 5 after MPI_Finalize.
#include <amp/miniapps/common/run_proxy.hpp>

#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/stop_signals.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/trace/format/json_schema_version.hpp>
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <utility>

namespace amp {

namespace {

ExitCode run_body(const char* name, const ProcessEnvironment& env, const ProcessMode& mode, const StartRequest& request,
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
    mode.run(name, request, env, body);
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
    stop_signals::die_by(stopped.signal);  // what the run began was removed while the stack unwound
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
    const std::unique_ptr<ProcessMode> mode = process_mode(request);
    ProcessEnvironment env(request, *mode, comm);
    code = run_body(name, env, *mode, request, body);
    if (code == ExitCode::kBadInput || code == ExitCode::kCombinationRefused)
      env.discard_trace();  // nothing written before the configuration is accepted
  }  // MPI_Finalize (when run_proxy started MPI): the tracing library closes this rank's trace file here
  if (code == ExitCode::kSuccess && amp_dumpi_trace_failed() != 0) code = ExitCode::kTraceNotWritten;
  return exit_status(code);
}

void check_run_memory(const Environment& env, bool plan_only, double run_bytes, double setup_bytes) {
  env.mode().check_memory(env.comm(), plan_only, run_bytes, setup_bytes);
}

ReservedOutput reserve_results_file(const std::string& path, const Environment& env) {
  return env.mode().reserve_results_file(path, env);
}

void finish_run(const Environment& env, ReservedOutput& results_file, nlohmann::json results,
                const LoopMeasurements& measurements, const std::function<void(const nlohmann::json&)>& print_summary) {
  env.mode().finish(env, results_file, std::move(results), measurements, print_summary);
}

}  // namespace amp
