// SPDX-License-Identifier: BSD-3-Clause
// The proxy's command line read once (start_request.hpp): one CLI11 pass, Kokkos' arguments among its extras.
#include <amp/miniapps/common/start_request.hpp>

#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>

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

// Every app and subcommand keeps what it does not know as an extra (CLI11's allow_extras): Kokkos' own
// arguments are among them, handed on to Kokkos, and any other extra is refused below.
void keep_extras(CLI::App& app) {
  app.allow_extras();
  for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) keep_extras(*command);
}

bool kokkos_argument(const std::string& argument) { return argument.rfind("--kokkos-", 0) == 0; }

// CLI11 would call an unknown subcommand an unexpected argument, or say that one is required; say what
// the user meant instead: the first word CLI11 did not take, when no subcommand was.
std::string unknown_subcommand(const CLI::App& app, const std::vector<std::string>& extras, const std::string& word) {
  const std::vector<const CLI::App*> commands = app.get_subcommands([](const CLI::App*) { return true; });
  if (commands.empty() || !app.get_subcommands().empty() || extras.empty() || extras.front()[0] == '-') return "";
  std::string names;
  for (const CLI::App* command : commands) names += (names.empty() ? "" : ", ") + command->get_name();
  return "unknown " + word + " '" + extras.front() + "'; choose one of " + names;
}

// The extras of `app` and its chosen subcommands, Kokkos' set apart into `kokkos`; the rest are returned.
std::vector<std::string> proxy_extras(const CLI::App& app, std::vector<std::string>& kokkos) {
  std::vector<std::string> rest;
  for (const std::string& extra : app.remaining(/*recurse=*/true))
    (kokkos_argument(extra) ? kokkos : rest).push_back(extra);
  return rest;
}

}  // namespace

StartRequest parse_start_request(CLI::App& app, int argc, char** argv, const std::string& subcommand_word) {
  StartRequest request;
  request.argc = argc;
  request.argv = argv;
  // Kokkos sees only its --kokkos-* arguments, and the proxy's parser everything: Kokkos 3.4 would
  // otherwise also act on the proxy's own --help.
  keep_extras(app);
  request.kokkos_args = {argv[0]};  // Kokkos' own argv[0], then its arguments
  try {
    try {
      request.help = !parse_arguments(app, argc, argv);
    } catch (const InputError&) {
      request.problem = unknown_subcommand(app, proxy_extras(app, request.kokkos_args), subcommand_word);
      if (request.problem.empty()) throw;
      return request;
    }
    const std::vector<std::string> rest = proxy_extras(app, request.kokkos_args);
    request.problem = unknown_subcommand(app, rest, subcommand_word);
    if (!request.problem.empty()) return request;
    if (!rest.empty()) throw InputError(CLI::ExtrasError(rest).what());
  } catch (const InputError& refused) {
    request.problem = refused.what();
    return request;
  }
  request.older_strategy_name = given_option(app, "--comm_method") != nullptr;
  if (request.help) {
    request.help_text = app.help();
    return request;
  }
  request.trace.given = given_option(app, "--trace") != nullptr;
  request.trace.directory = given_text(app, "--trace").value_or("");
  request.trace.setup = given_option(app, "--trace-setup") != nullptr;
  request.synthesis.asked = given_option(app, "--synthesize") != nullptr;
  request.synthesis.directory = given_text(app, "--synthesize").value_or("");
  request.synthesis.ranks = given_text(app, "--ranks");
  request.synthesis.compute_seconds = given_text(app, "--compute_seconds");
  return request;
}

}  // namespace amp
