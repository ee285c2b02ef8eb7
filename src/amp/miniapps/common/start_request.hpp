// SPDX-License-Identifier: BSD-3-Clause
// The one reading of a proxy's command line, before MPI starts: one CLI11 pass over the proxy's own
// flags and deck, which keeps the --kokkos-* arguments (CLI11 extras) apart for Kokkos. What must be
// known before MPI_Init (the trace folder, a synthesis, Kokkos' arguments) and what the proxy's body
// reads (its flags, filled by the same pass) come from here; nothing else reads argv.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace amp {

// --synthesize DIR --ranks N [--compute_seconds S] as given (synthesis.hpp reads the numbers, so that
// they are named as typed, past what any type holds).
struct SynthesisRequest {
  bool asked = false;  // --synthesize given (and not --help)
  std::string directory;
  std::optional<std::string> ranks;
  std::optional<std::string> compute_seconds;  // none: measure
};

// --trace DIR and --trace-setup as given, of the app or of its chosen subcommand: the one copy, from the
// parse to the tracing library (amp_dumpi_trace_into, which also reads AMP_TRACE_DIR) and the flag checks.
struct TraceRequest {
  bool given = false;     // --trace was given (perhaps with no directory)
  std::string directory;  // its directory ("" when not given)
  bool setup = false;     // --trace-setup
};

struct StartRequest {
  // The command line as given: MPI_Init and the trace's MPI_Init record receive it whole.
  int argc = 0;
  char** argv = nullptr;
  std::vector<std::string> kokkos_args;  // argv[0] and the --kokkos-* arguments: what Kokkos::initialize sees
  bool help = false;                     // --help: rank 0 prints help_text, every rank returns
  std::string help_text;
  std::string problem;  // why the command line is refused (exit 2 once MPI runs); "" when accepted
  TraceRequest trace;
  SynthesisRequest synthesis;
  bool older_strategy_name = false;  // --comm_method or a deck's comm_method: rank 0 warns once
};

// The one line rank 0 prints when the older name of --strategy was used (after "NAME: warning: ").
inline constexpr const char* kOlderStrategyName =
    "--comm_method is deprecated; use --strategy (in a deck: strategy = ...)";

// Parses argc/argv into `app` (whose options the caller added; a proxy's flags are filled by it) and
// returns the request; never throws for bad input (the problem is kept until MPI runs, so that rank 0
// names it). `subcommand_word` names an app's subcommands in the line for an unknown one ("benchmark":
// "unknown benchmark 'x'; choose one of a, b").
StartRequest parse_start_request(CLI::App& app, int argc, char** argv,
                                 const std::string& subcommand_word = "subcommand");

}  // namespace amp
