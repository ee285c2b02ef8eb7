// The main() wrapper every proxy uses: sets up the Environment, runs the proxy body, and turns
// every error into one line and a non-zero exit on every rank (never a hang).
#pragma once

#include "environment.hpp"
#include "loop_report.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace amp {

// Exit codes: 0 success, 1 verification failed, 2 bad input, 3 other error (job aborted).
int run_proxy(const char* name, int argc, char** argv, const std::function<void(const Environment&, int, char**)>& body);

// check_node_memory (memory_check.hpp) for the fields a run allocates: none in a synthesis, which makes
// the check's calls but fills nothing.
void check_run_memory(const Environment& env, double field_bytes_per_rank);

// The end of every proxy body: in a synthesis, virtual rank 0 hands its results to it; otherwise rank 0
// prints the summary and writes the results file, and a failed verification throws VerificationError
// on every rank.
void finish_run(const Environment& env, const std::string& results_file, const nlohmann::json& results,
                const LoopMeasurements& measurements, const std::function<void(const nlohmann::json&)>& print_summary);

}  // namespace amp
