// SPDX-License-Identifier: BSD-3-Clause
// toml++ parse of a deck into CLI11 config items, with the line of every problem.
#include <amp/miniapps/common/toml_deck.hpp>

#include <amp/miniapps/common/command_line.hpp>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <iterator>
#include <map>
#include <sstream>
#include <utility>

namespace amp {

namespace {

// One TOML scalar as the text CLI11 converts (strings as they are, numbers in full precision).
bool scalar_text(const toml::node& node, std::string& text) {
  if (auto s = node.value_exact<std::string>())
    text = *s;
  else if (auto i = node.value_exact<std::int64_t>())
    text = std::to_string(*i);
  else if (auto d = node.value_exact<double>())
    text = fmt::format("{}", *d);
  else if (auto b = node.value_exact<bool>())
    text = *b ? "true" : "false";
  else
    return false;
  return true;
}

// The option a deck key sets, looked up the way CLI11 does (--key, -k, then the plain name); null if none.
const CLI::Option* option_named(const CLI::App& app, const std::string& key) {
  if (const CLI::Option* option = app.get_option_no_throw("--" + key)) return option;
  if (key.size() == 1)
    if (const CLI::Option* option = app.get_option_no_throw("-" + key)) return option;
  return app.get_option_no_throw(key);
}

// The option a key sets in the end: an older name's is its current flag's.
const CLI::Option* option_set_by(const CLI::App& app, const std::string& key) {
  for (const OlderName& name : kOlderNames)
    if (key == name.older) return option_named(app, name.current);
  return option_named(app, key);
}

// Flags read from the command line before MPI_Init or before the proxy's parser runs (tracing, a
// synthesis): a deck could not change them, so it may not hold them.
bool command_line_only(const std::string& key) {
  for (const char* name : {"trace", "trace-setup", "synthesize", "compute_seconds"})
    if (key == name) return true;
  return false;
}

}  // namespace

std::vector<CLI::ConfigItem> TomlDeck::from_config(std::istream& input) const {
  const std::string text{std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>()};
  const std::string path = app_.get_config_ptr()->results().back();
  auto fail = [&](std::uint32_t line, const std::string& what) {
    return CLI::ConfigError(fmt::format("input deck '{}' line {}: {}", path, line, what));
  };
  toml::table deck;
  try {
    deck = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw fail(e.source().begin.line, std::string(e.description()));
  }
  std::vector<CLI::ConfigItem> items;
  // The key and line that first set each option: one option under two names (a flag and its older name,
  // command_line.hpp's kOlderNames) would be resolved by CLI11 silently, whatever their order.
  std::map<const CLI::Option*, std::pair<std::string, std::uint32_t>> set_by;
  for (const auto& [key, node] : deck) {
    const std::string name(key.str());
    const auto line = node.source().begin.line;
    if (node.is_table()) throw fail(line, fmt::format("'{}' is a table; decks hold only 'key = value' lines", name));
    const CLI::Option* option = option_named(app_, name);
    if (option == nullptr) throw fail(line, fmt::format("unknown key '{}'", name));
    if (command_line_only(name))
      throw fail(
          line, fmt::format("'{}' must be given on the command line as --{} (it is read before the deck)", name, name));
    // One grammar for numbers (command_line.cpp): a whole number is written as one, and a number is no string.
    const std::string type = option->get_type_name();
    const bool whole = type == "INT" || type == "UINT", number = whole || type == "FLOAT";
    auto check_kind = [&](const toml::node& value) {
      if (number && value.is_string())
        throw fail(line, fmt::format("'{}' takes a number, not the string \"{}\"", name, *value.value<std::string>()));
      if (whole && value.is_floating_point())
        throw fail(line, fmt::format("'{}' takes a whole number in decimal digits, not the floating-point {}", name,
                                     *value.value<double>()));
    };
    if (const auto* array = node.as_array())
      for (const auto& element : *array) check_kind(element);
    else
      check_kind(node);
    if (node.is_array() && option->get_items_expected_max() <= 1)
      throw fail(line, fmt::format("'{}' takes one value, not an array", name));
    const auto [first, fresh] = set_by.emplace(option_set_by(app_, name), std::make_pair(name, line));
    if (!fresh) {  // named by line, as the file reads (toml++ keeps its keys sorted by name)
      std::pair<std::string, std::uint32_t> earlier = first->second, later{name, line};
      if (later.second < earlier.second) std::swap(earlier, later);
      throw fail(later.second, fmt::format("'{}' sets the same flag as '{}' (line {}); give one of them", later.first,
                                           earlier.first, earlier.second));
    }
    CLI::ConfigItem item;
    item.name = name;
    std::string value;
    if (const auto* array = node.as_array()) {
      for (const auto& element : *array) {
        if (!scalar_text(element, value))
          throw fail(line, fmt::format("'{}' holds a value that is not a number, string or boolean", name));
        item.inputs.push_back(value);
      }
    } else {
      if (!scalar_text(node, value)) throw fail(line, fmt::format("'{}' is not a number, string or boolean", name));
      item.inputs.push_back(value);
    }
    items.push_back(std::move(item));
  }
  return items;
}

std::string TomlDeck::to_config(const CLI::App*, bool, bool, std::string) const {
  throw CLI::ConfigError("writing a deck is not supported");
}

}  // namespace amp
