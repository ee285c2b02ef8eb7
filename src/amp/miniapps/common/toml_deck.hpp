// SPDX-License-Identifier: BSD-3-Clause
// Input decks read with toml++ (real TOML: a key given twice or bad syntax is an error naming the
// deck's line), handed to CLI11 as config items so that command-line flags still override the deck.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace amp {

// CLI11's config reader for one deck. Every top-level key must name an option of `app` (or an older name
// of one, command_line.hpp's kOlderNames); arrays give an option that takes several values several values;
// an array for a one-value option, tables, dates, and the flags read before the deck (trace, trace-setup,
// synthesize, compute_seconds) are rejected. Errors are CLI::ConfigError whose text is "input deck 'PATH'
// line N: what is wrong".
class TomlDeck : public CLI::Config {
 public:
  // The deck is the one `app`'s --input names (its config option), read when CLI11 asks.
  explicit TomlDeck(const CLI::App& app) : app_(app) {}

  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;
  std::string to_config(const CLI::App*, bool, bool, std::string) const override;

 private:
  const CLI::App& app_;
};

}  // namespace amp
