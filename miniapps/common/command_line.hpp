// Command-line parsing shared by the proxies: CLI11 with a TOML input deck (--input FILE, flags
// override the deck), --help printed by rank 0 only, parse errors turned into InputError.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace amp {

// Adds --input (TOML deck), --results, --trace and --trace-setup to a proxy's CLI.
struct CommonOptions {
  std::string results_file;
  std::string trace_dir;
  bool trace_setup = false;
};
void add_common_options(CLI::App& app, CommonOptions& options);

// Reading a flag before the parser runs (for what must be known before MPI_Init or before the
// proxy's body; CLI11 parses the flag again later, for --help and validation): the value of
// `--name V` or `--name=V` (the last one given), and whether a valueless `--name` is present.
std::optional<std::string> prescanned_value(int argc, char** argv, const char* name);
bool prescanned_flag(int argc, char** argv, const char* name);

// Parses argv. Returns false when --help was asked for (rank 0 printed it; every rank should return).
// Throws InputError naming the problem for any bad flag, value or deck.
bool parse_command_line(CLI::App& app, int argc, char** argv, int rank);

// A results file must not exist yet (nothing a user wrote is overwritten) and its folder must be
// writable. Checked before any work, identically on every rank.
void check_results_path(const std::string& path);

}  // namespace amp
