// CLI11 glue: deck reading, help on rank 0, one-line errors; and the results-file preflight check.
#include "command_line.hpp"

#include "errors.hpp"

#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace amp {

void add_common_options(CLI::App& app, CommonOptions& options) {
  app.set_config("--input", "", "TOML input deck; command-line flags override it");
  app.add_option("--results", options.results_file, "write the results as JSON to this (new) file");
  app.add_option("--trace", options.trace_dir, "write a DUMPI trace of the time-stepping loop into DIR");
  app.add_flag("--trace-setup", options.trace_setup, "with --trace: record set-up and tear-down too");
}

bool parse_command_line(CLI::App& app, int argc, char** argv, int rank) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.empty()) what = e.get_name();
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
