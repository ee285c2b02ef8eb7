// SPDX-License-Identifier: BSD-3-Clause
// The proxy's command line read once (start_request.hpp): Kokkos' arguments apart, then one CLI11 pass.
#include <amp/miniapps/common/start_request.hpp>

#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>

#include <cstring>

namespace amp {

namespace {

// The option `name` of `app`, or of the subcommand the command line chose, when it was given.
const CLI::Option* given_option(const CLI::App& app, const std::string& name) {
  const CLI::Option* option = app.get_option_no_throw(name);
  if (option != nullptr && option->count() > 0) return option;
  for (const CLI::App* command : app.get_subcommands()) {
    option = command->get_option_no_throw(name);
    if (option != nullptr && option->count() > 0) return option;
  }
  return nullptr;
}

std::optional<std::string> given_text(const CLI::App& app, const std::string& name) {
  const CLI::Option* option = given_option(app, name);
  if (option == nullptr) return std::nullopt;
  return option->as<std::string>();
}

// CLI11 would call an unknown subcommand an "unexpected argument"; say what the user meant instead.
std::string unknown_subcommand(const CLI::App& app, const std::vector<char*>& arguments, const std::string& word) {
  const std::vector<const CLI::App*> commands = app.get_subcommands([](const CLI::App*) { return true; });
  if (commands.empty() || arguments.size() < 2 || arguments[1][0] == '-') return "";
  std::string names;
  for (const CLI::App* command : commands) {
    if (command->get_name() == arguments[1]) return "";
    names += (names.empty() ? "" : ", ") + command->get_name();
  }
  return "unknown " + word + " '" + arguments[1] + "'; choose one of " + names;
}

}  // namespace

StartRequest parse_start_request(CLI::App& app, int argc, char** argv, const std::string& subcommand_word) {
  StartRequest request;
  request.argc = argc;
  request.argv = argv;
  // Kokkos sees only the --kokkos-* arguments, and the proxy's parser everything else: Kokkos 3.4
  // would otherwise also act on the proxy's own --help.
  std::vector<char*> arguments{argv[0]};
  request.kokkos_args.push_back(argv[0]);
  for (int i = 1; i < argc; ++i)
    (std::strncmp(argv[i], "--kokkos-", 9) == 0 ? request.kokkos_args : arguments).push_back(argv[i]);
  request.problem = unknown_subcommand(app, arguments, subcommand_word);
  if (!request.problem.empty()) return request;
  try {
    request.help =
        !parse_arguments(app, static_cast<int>(arguments.size()), arguments.data(), &request.older_strategy_name);
  } catch (const InputError& refused) {
    request.problem = refused.what();
    return request;
  }
  if (request.help) {
    request.help_text = app.help();
    return request;
  }
  request.trace_given = given_option(app, "--trace") != nullptr;
  request.trace_dir = given_text(app, "--trace").value_or("");
  request.trace_setup = given_option(app, "--trace-setup") != nullptr;
  request.synthesis.asked = given_option(app, "--synthesize") != nullptr;
  request.synthesis.directory = given_text(app, "--synthesize").value_or("");
  request.synthesis.ranks = given_text(app, "--ranks");
  request.synthesis.compute_seconds = given_text(app, "--compute_seconds");
  return request;
}

}  // namespace amp
