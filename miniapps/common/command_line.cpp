// CLI11 glue: deck reading, help on rank 0, one-line errors; and the results-file preflight check.
#include "command_line.hpp"

#include "errors.hpp"
#include "toml_deck.hpp"

#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace amp {

std::optional<std::string> prescanned_value(int argc, char** argv, const char* name) {
  std::optional<std::string> value;
  const std::size_t length = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0 && i + 1 < argc) value = argv[i + 1];
    if (std::strncmp(argv[i], name, length) == 0 && argv[i][length] == '=') value = argv[i] + length + 1;
  }
  return value;
}

bool prescanned_flag(int argc, char** argv, const char* name) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}

void add_common_options(CLI::App& app, CommonOptions& options) {
  // A flag given twice (deck, then command line; or a script appending overrides) takes the last value.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_config("--input", "", "TOML input deck; command-line flags override it");
  app.add_option("--results", options.results_file, "write the results as JSON to this (new) file");
  app.add_option("--trace", options.trace_dir, "write a DUMPI trace of the time-stepping loop into DIR");
  app.add_flag("--trace-setup", options.trace_setup, "with --trace: record set-up and tear-down too");
}

namespace {

// The --input value as typed (for naming the deck in error messages).
std::string deck_path(int argc, char** argv) {
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--input" && i + 1 < argc) path = argv[i + 1];
    if (arg.rfind("--input=", 0) == 0) path = arg.substr(8);
  }
  return path;
}

}  // namespace

bool parse_command_line(CLI::App& app, int argc, char** argv, int rank) {
  // The deck is real TOML (toml_deck.hpp); its path names the deck in error messages.
  if (app.get_config_ptr() != nullptr) app.config_formatter(std::make_shared<TomlDeck>(deck_path(argc, argv), app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.empty()) what = e.get_name();
    const bool names_deck = what.rfind("input deck '", 0) == 0;
    if (dynamic_cast<const CLI::ConfigError*>(&e) != nullptr && !names_deck) what = "input deck '" + deck_path(argc, argv) + "': " + what;
    throw InputError(what);
  }
  return true;
}

void check_results_path(const std::string& path) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  if (fs::exists(path)) {
    throw InputError("results file '" + path + "' already exists; choose a new name (nothing is overwritten)");
  }
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::is_directory(folder)) throw InputError("results folder '" + folder.string() + "' does not exist");
  if (access(folder.c_str(), W_OK) != 0) throw InputError("results folder '" + folder.string() + "' is not writable");
}

}  // namespace amp
