// SPDX-License-Identifier: BSD-3-Clause
// Command-line parsing shared by the proxies: CLI11 with a TOML input deck (--input FILE, flags
// override the deck), --help printed by rank 0 only, parse errors turned into InputError.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace amp {

// Adds --input (TOML deck), --results, --trace and --trace-setup to a proxy's CLI.
struct CommonOptions {
  std::string results_file;
  std::string trace_dir;
  bool trace_setup = false;
};
void add_common_options(CLI::App& app, CommonOptions& options);

// Parses argv (the proxies' own: start_request.hpp calls it once). Returns false when --help was asked
// for. Throws InputError naming the problem for any bad flag, value or deck. Integers, on the command
// line and in the deck, are decimal only (a leading 0 is not octal, no 0x), in their type's range (no
// negative value for an unsigned one); floating-point values must be finite. `older_strategy_name`,
// when given, is set where --comm_method (or a deck's comm_method), strategy's deprecated name, is used.
bool parse_arguments(CLI::App& app, int argc, char** argv, bool* older_strategy_name = nullptr);
// The same, printing the help on rank 0 when --help was asked for (a program without StartRequest).
bool parse_command_line(CLI::App& app, int argc, char** argv, int rank);

// Whether `text` is a number in AMP's one grammar of floating-point values (command line and decks alike):
// [+-] digits [. digits] [e [+-] digits], or [+-] . digits [...]; no hex (0x1p-3), no words (inf, nan).
bool decimal_number(const std::string& text);

// The common flags against each other: --results and --trace name something when given, and
// --trace-setup needs tracing (`tracing`: --trace or AMP_TRACE_DIR). Throws InputError.
void check_common_options(const CLI::App& app, const CommonOptions& options, bool tracing);
// The same for any command with these flags; `file_flags` name the options that write a file
// (--results, amp-micro's --csv): each must name one when given.
void check_output_flags(const CLI::App& app, const std::vector<std::string>& file_flags, const std::string& trace_dir,
                        bool trace_setup, bool tracing);

}  // namespace amp
