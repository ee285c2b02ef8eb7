// SPDX-License-Identifier: BSD-3-Clause
// CLI11 glue: deck reading, decimal-only numbers, help on rank 0, one-line errors; the common flags' checks.
#include <amp/miniapps/common/command_line.hpp>

#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/toml_deck.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace amp {

namespace {

// The deck named by --input, checked (a CLI11 validator) before CLI11 reads it: its own message ("was not
// readable (missing?)") says "missing" of a folder too, and a FIFO would hang the read.
CLI::Validator deck_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (path.empty()) return "";
        struct stat info;
        if (::stat(path.c_str(), &info) != 0) {
          const int error = errno;
          throw InputError("input deck '" + path + "': " + (error == ENOENT ? "no such file" : std::strerror(error)));
        }
        if (S_ISDIR(info.st_mode)) throw InputError("input deck '" + path + "' is a folder; give a deck file (TOML)");
        if (!S_ISREG(info.st_mode))
          throw InputError("input deck '" + path + "' is not a regular file (a deck is read whole)");
        return "";
      },
      "", "");
}

}  // namespace

void add_common_options(CLI::App& app, CommonOptions& options) {
  // A flag given twice (deck, then command line; or a script appending overrides) takes the last value.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_config("--input", "", "TOML input deck; command-line flags override it")->check(deck_file());
  app.add_option("--results", options.results_file, "write the results as JSON to this (new) file");
  app.add_option("--trace", "write a DUMPI trace of the time-stepping loop into DIR")->type_name("TEXT");
  app.add_flag("--trace-setup", "with --trace: record set-up and tear-down too");
}

// The one grammar of a floating-point value, on the command line as in decks (which TOML reads the same
// way): [+-] digits [. digits] [e [+-] digits], or [+-] . digits [...]. strtod alone would also take hex
// (0x1p-3), "inf" and "nan".
bool decimal_number(const std::string& text) {
  std::size_t at = text.empty() || (text[0] != '+' && text[0] != '-') ? 0 : 1;
  auto digits = [&text, &at] {
    const std::size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    return at > start;
  };
  bool whole = digits(), fraction = false;
  if (at < text.size() && text[at] == '.') {
    ++at;
    fraction = digits();
  }
  if (!whole && !fraction) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    if (!digits()) return false;
  }
  return at == text.size();
}

namespace {

// CLI11 reads integers with base prefixes (010 is octal 8, 0x10 is 16) and wraps -1 into an unsigned
// one; this transform lets through only [+-]digits, in range, with leading zeros dropped.
CLI::Validator decimal_integer(bool is_unsigned) {
  return CLI::Validator(
      [is_unsigned](std::string& text) -> std::string {
        std::size_t at = text[0] == '+' || text[0] == '-' ? 1 : 0;
        const bool negative = text[0] == '-';
        if (at == text.size() || text.find_first_not_of("0123456789", at) != std::string::npos)
          return "'" + text + "' is not a decimal integer";
        if (negative && is_unsigned) return "'" + text + "' is negative";
        const std::size_t first = std::min(text.find_first_not_of('0', at), text.size() - 1);
        const std::string digits = (negative ? "-" : "") + text.substr(first);
        bool fits = false;
        if (is_unsigned) {
          std::uint64_t value = 0;
          fits = std::from_chars(digits.data(), digits.data() + digits.size(), value).ec == std::errc();
        } else {
          std::int64_t value = 0;
          fits = std::from_chars(digits.data(), digits.data() + digits.size(), value).ec == std::errc();
        }
        if (!fits) return "'" + text + "' is out of range";
        text = digits;
        return "";
      },
      "", "");
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end != text.c_str() && *end == '\0' && !std::isfinite(value))
          return "'" + text + "' is not a finite number";
        if (!decimal_number(text)) return "'" + text + "' is not a decimal number (e.g. 0.125 or 1.25e-1)";
        return "";
      },
      "", "");
}

// The option `name` of `app` or of one of its subcommands, or null.
const CLI::Option* find_option(const CLI::App& app, const std::string& name) {
  if (const CLI::Option* option = app.get_option_no_throw(name)) return option;
  for (const CLI::App* command : app.get_subcommands({}))
    if (const CLI::Option* option = find_option(*command, name)) return option;
  return nullptr;
}

// CLI11's "Could not convert: --nx = 8,3000000000" for an integer that passed decimal_integer (so it fits
// 64 bits) but not the option's own 32-bit int: said as out of range, with the option's bounds, naming the
// value taken (the last given). Any other conversion error is left as it is.
std::string conversion_problem(const CLI::App& app, const std::string& what) {
  const std::string prefix = "Could not convert: ";
  const std::size_t equals = what.find(" = ");
  if (what.rfind(prefix, 0) != 0 || equals == std::string::npos) return what;
  const std::string name = what.substr(prefix.size(), equals - prefix.size());
  std::string value = what.substr(equals + 3);
  value = value.substr(value.rfind(',') == std::string::npos ? 0 : value.rfind(',') + 1);
  const CLI::Option* option = find_option(app, name);
  const std::string type = option != nullptr ? option->get_type_name() : "";
  if (type == "INT")
    return name + ": '" + value + "' is out of range (from " + std::to_string(INT32_MIN) + " to " +
           std::to_string(INT32_MAX) + ")";
  if (type == "UINT") return name + ": '" + value + "' is out of range (from 0 to " + std::to_string(UINT32_MAX) + ")";
  return what;
}

// A one-value option given more than once with different values (--nx 8 --nx 16; --strategy svaf
// --comm_method svcp) is refused rather than resolved silently by taking the last. The same value again is
// harmless (a script that appends an override it already holds).
void check_given_once(const CLI::App& app) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_items_expected_max() > 1 || option->count() < 2) continue;
    const CLI::results_t& given = option->results();
    for (const std::string& value : given) {
      if (value == given.front()) continue;
      std::string names;
      for (const std::string& name : option->get_lnames()) names += (names.empty() ? "--" : " or --") + name;
      throw InputError(names + " given twice with different values ('" + given.front() + "' and '" + value +
                       "'); give it once");
    }
  }
  for (const CLI::App* command : app.get_subcommands({})) check_given_once(*command);
}

// Every integer and floating-point option of `app` and its subcommands.
void require_plain_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    if (type == "INT" || type == "UINT")
      option->transform(decimal_integer(type == "UINT"));
    else if (type == "FLOAT")
      option->check(finite_number());
  }
  for (CLI::App* command : app.get_subcommands({})) require_plain_numbers(*command);
}

// The value a typed older name (kOlderNames) gives its current option `current`, both of the same app: it
// replaces a deck's value; beside the current name typed too it must be the same value. Given in a deck,
// the older name yields to the current one typed.
void hand_on(CLI::App& app, CLI::Option& current, const std::string& older_name, const std::string& value) {
  const std::vector<CLI::Option*>& order = app.parse_order();
  const auto typed = [&order](const CLI::Option* option) {
    return std::find(order.begin(), order.end(), option) - order.begin();
  };
  const auto older_at = typed(app.get_option_no_throw(older_name));
  const auto current_at = typed(&current);
  const auto untyped = static_cast<std::ptrdiff_t>(order.size());
  if (older_at == untyped) {  // from the deck
    if (current.empty()) current.add_result(value);
    return;
  }
  if (current_at != untyped) {
    const std::string theirs = current.results().front();
    if (theirs == value) return;
    const bool older_first = older_at < current_at;
    throw InputError(current.get_name() + " or " + older_name + " given twice with different values ('" +
                     (older_first ? value : theirs) + "' and '" + (older_first ? theirs : value) + "'); give it once");
  }
  current.clear();
  current.add_result(value);
  current.run_callback();
}

// Each older name as a hidden CLI11 option of the app (or subcommand) that has its current option.
void add_older_names(CLI::App& app) {
  for (const OlderName& name : kOlderNames) {
    CLI::Option* current = app.get_option_no_throw(std::string("--") + name.current);
    const std::string older = std::string("--") + name.older;
    if (current == nullptr || app.get_option_no_throw(older) != nullptr) continue;
    app.add_option(
           older,
           [&app, current, older](const CLI::results_t& given) {
             hand_on(app, *current, older, given.back());
             return true;
           },
           std::string("older name of --") + name.current)
        ->group("");
  }
  for (CLI::App* command : app.get_subcommands({})) add_older_names(*command);
}

// The deck --input names ("" when none).
std::string given_deck(const CLI::App& app) {
  const CLI::Option* input = app.get_config_ptr();
  return input == nullptr || input->count() == 0 ? "" : input->results().back();
}

}  // namespace

bool parse_arguments(CLI::App& app, int argc, char** argv) {
  require_plain_numbers(app);
  add_older_names(app);
  // The deck is real TOML (toml_deck.hpp); it names itself in its errors.
  if (app.get_config_ptr() != nullptr) app.config_formatter(std::make_shared<TomlDeck>(app));
  try {
    app.parse(argc, argv);
    check_given_once(app);
  } catch (const CLI::CallForHelp&) {
    return false;
  } catch (const CLI::ConversionError& e) {
    throw InputError(conversion_problem(app, e.what()));
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.empty()) what = e.get_name();
    const bool names_deck = what.rfind("input deck '", 0) == 0;
    if (dynamic_cast<const CLI::ConfigError*>(&e) != nullptr && !names_deck)
      what = "input deck '" + given_deck(app) + "': " + what;
    throw InputError(what);
  }
  return true;
}

bool parse_command_line(CLI::App& app, int argc, char** argv, int rank) {
  if (parse_arguments(app, argc, argv)) return true;
  if (rank == 0) std::cout << app.help();
  return false;
}

void check_output_flags(const CLI::App& app, const std::vector<std::string>& file_flags, const TraceRequest& trace,
                        bool tracing) {
  for (const std::string& flag : file_flags) {
    const CLI::Option* option = app.get_option_no_throw(flag);
    if (option != nullptr && option->count() > 0 && option->as<std::string>().empty())
      throw InputError(flag + " needs a file name");
  }
  if (!AMP_TRACING_BUILT && app.count("--trace") > 0)  // --synthesize: refused before this (Synthesis)
    throw InputError("--trace needs tracing, and this build has none (configured with AMP_ENABLE_TRACING=OFF)");
  if (app.count("--trace") > 0 && trace.directory.empty()) throw InputError("--trace needs a directory");
  if (trace.setup && !tracing) throw InputError("--trace-setup needs --trace DIR (it widens what is traced)");
}

}  // namespace amp
