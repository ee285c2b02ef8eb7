// SPDX-License-Identifier: BSD-3-Clause
// Command-line parsing shared by the proxies: CLI11 with a TOML input deck (--input FILE, flags
// override the deck), --help printed by rank 0 only, parse errors turned into InputError.
#pragma once

#include <amp/miniapps/common/start_request.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace amp {

// Adds --input (TOML deck), --results, --trace and --trace-setup to a proxy's CLI (the start request reads
// --trace and --trace-setup: start_request.hpp).
struct CommonOptions {
  std::string results_file;
};
void add_common_options(CLI::App& app, CommonOptions& options);

// Flags kept one release under an older name: CLI11 reads --OLDER (a deck's OLDER) as a hidden option that
// gives its value to --CURRENT, as if that had been given (the command line still overrides a deck, and
// the two names typed with different values are refused); rank 0 warns of it (start_request.hpp).
struct OlderName {
  const char* older;
  const char* current;
};
inline constexpr OlderName kOlderNames[] = {{"comm_method", "strategy"}};

// Parses argv with CLI11 (the proxies': start_request.hpp calls it once). Returns false when --help was
// asked for. Throws InputError naming the problem for any bad flag, value or deck. Integers, on the command
// line and in the deck, are decimal only (a leading 0 is not octal, no 0x), in their type's range (no
// negative value for an unsigned one); floating-point values must be finite.
bool parse_arguments(CLI::App& app, int argc, char** argv);
// The same, printing the help on rank 0 when --help was asked for (a program without StartRequest).
bool parse_command_line(CLI::App& app, int argc, char** argv, int rank);

// Whether `text` is a number in AMP's one grammar of floating-point values (command line and decks alike):
// [+-] digits [. digits] [e [+-] digits], or [+-] . digits [...]; no hex (0x1p-3), no words (inf, nan).
bool decimal_number(const std::string& text);

// The output flags against each other: `file_flags`, the options that write a file (--results, amp-micro's
// --csv), must each name one when given, --trace a directory, and --trace-setup needs tracing (`tracing`:
// --trace or AMP_TRACE_DIR). Throws InputError.
void check_output_flags(const CLI::App& app, const std::vector<std::string>& file_flags, const TraceRequest& trace,
                        bool tracing);

}  // namespace amp
