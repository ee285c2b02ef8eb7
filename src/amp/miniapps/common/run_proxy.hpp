// SPDX-License-Identifier: BSD-3-Clause
// The main() wrapper every proxy uses: sets up the Environment, runs the proxy body, and turns
// every error into one line and an exit code from exit_codes.hpp on every rank (never a hang).
#pragma once

#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/exit_codes.hpp>
#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/reserved_output.hpp>
#include <amp/miniapps/common/start_request.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace amp {

// Exit codes (exit_codes.hpp): 0 success, 1 verification failed, 2 bad input, 3 other error (job
// aborted), 4 results file not written, 5 trace not written (checked after MPI_Finalize).
// The proxy runs on `comm` (MPI_COMM_WORLD from main; a sub-communicator when embedded, where the caller
// has started MPI and finalizes it).
// `request` is the command line read once (start_request.hpp): a refused one (its problem) exits 2, --help
// is printed by rank 0; the process mode it asks for (run_mode.hpp) runs `body`.
int run_proxy(const char* name, MPI_Comm comm, const StartRequest& request,
              const std::function<void(const Environment&)>& body);

// check_node_memory (memory_check.hpp) for what this run allocates per rank, as the run's mode says:
// its fields and set-up (`run_bytes`), or where no field is filled (--plan-only) the set-up (`setup_bytes`).
void check_run_memory(const Environment& env, bool plan_only, double run_bytes, double setup_bytes);

// The --results file of this run, reserved once the configuration is accepted (reserved_output.hpp) as
// the run's mode reserves it. An empty path reserves nothing.
ReservedOutput reserve_results_file(const std::string& path, const Environment& env);

// The end of every proxy body, as the run's mode ends it: in a real run rank 0 prints the summary and
// writes the results file (with "machine_load" added), a failed verification throws VerificationError and
// then a file that could not be written ResultsFileError, on every rank.
void finish_run(const Environment& env, ReservedOutput& results_file, nlohmann::json results,
                const LoopMeasurements& measurements, const std::function<void(const nlohmann::json&)>& print_summary);

}  // namespace amp
