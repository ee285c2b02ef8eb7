// SPDX-License-Identifier: BSD-3-Clause
// How amp-trace ends when something goes wrong: one line on stderr and an exit code (2 for bad
// usage or input, 4 for an output that could not be written, standard output included).
#pragma once

#include <CLI/CLI.hpp>

#include <exception>
#include <string>

namespace amp::trace::cli {

// A command line CLI11 refused: `amp-trace: error: <what>`, exit 2 (`first_argument`: argv[1] or
// empty, to name an unknown subcommand).
int usage_error(const CLI::ParseError& error, const CLI::App& app, const std::string& first_argument);
// Any other failure: `amp-trace: <what>`, the given exit code.
int report_failure(const std::exception& error, int exit_code);
// Flushes standard output; throws OutputWriteError when any of it could not be written (a full
// disk, a closed pipe, /dev/full), so that a lost report is never a success.
void finish_standard_output();

}  // namespace amp::trace::cli
