// SPDX-License-Identifier: BSD-3-Clause
// Decks are real TOML read by toml++ through amp-ghost's own options: command-line flags override the
// deck; a key given twice, bad syntax, an unknown key or a table is an InputError naming the deck's line.
#include <amp/miniapps/common/command_line.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/start_request.hpp>
#include <amp/miniapps/ghost/ghost_config.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Parsed {
  amp::ghost::GhostConfig config;
  amp::ghost::RawGhostFlags raw;
};

// Writes `text` to a deck file and parses `--input DECK` plus `flags` with amp-ghost's options.
Parsed parse_deck(const std::string& text, std::vector<std::string> flags, std::string* deck_path = nullptr) {
  const std::string path = testing::TempDir() + "amp_toml_deck_test.toml";
  std::ofstream(path) << text;
  if (deck_path != nullptr) *deck_path = path;
  Parsed parsed;
  CLI::App app;
  app.allow_config_extras(false);
  amp::CommonOptions common;
  amp::add_common_options(app, common);
  amp::ghost::add_ghost_options(app, parsed.config, parsed.raw);
  std::vector<std::string> args = {"amp-ghost", "--input", path};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  amp::parse_command_line(app, static_cast<int>(argv.size()), argv.data(), 0);
  std::remove(path.c_str());
  return parsed;
}

std::string error_of(const std::string& text, std::string* deck_path) {
  try {
    parse_deck(text, {}, deck_path);
  } catch (const amp::InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TomlDeck, FlagsOverrideTheDeck) {
  const Parsed p = parse_deck("nx = 8\nny = 9\nstencil = \"3d27pt\"\nprogress = 0.25\n", {"--nx", "6"});
  EXPECT_EQ(p.config.nx, 6);
  EXPECT_EQ(p.config.ny, 9);
  EXPECT_EQ(p.config.nz, 100);  // neither: the default
  EXPECT_EQ(p.raw.stencil, "3d27pt");
  EXPECT_EQ(p.config.progress_seconds, 0.25);
}

TEST(TomlDeck, AKeyGivenTwiceNamesItsLine) {
  std::string path;
  const std::string what = error_of("nx = 8\nny = 8\nnx = 9\n", &path);
  EXPECT_EQ(what.rfind("input deck '" + path + "' line 3: ", 0), 0u) << what;
  EXPECT_NE(what.find("'nx'"), std::string::npos) << what;
}

TEST(TomlDeck, BadSyntaxNamesItsLine) {
  std::string path;
  const std::string what = error_of("# a comment\nnx = 8\nny = = 3\n", &path);
  EXPECT_EQ(what.rfind("input deck '" + path + "' line 3: ", 0), 0u) << what;
}

TEST(TomlDeck, AnUnknownKeyNamesItsLine) {
  std::string path;
  const std::string what = error_of("nx = 8\nstencill = \"3d7pt\"\n", &path);
  EXPECT_EQ(what, "input deck '" + path + "' line 2: unknown key 'stencill'");
}

TEST(TomlDeck, ATableIsRefused) {
  std::string path;
  const std::string what = error_of("nx = 8\n[grid]\nny = 4\n", &path);
  EXPECT_EQ(what, "input deck '" + path + "' line 2: 'grid' is a table; decks hold only 'key = value' lines");
}

// --comm_method is --strategy by its older name, in a deck too; the command line still overrides.
TEST(TomlDeck, TheOlderKeyComm_methodSetsTheStrategy) {
  EXPECT_EQ(parse_deck("comm_method = \"svcp\"\n", {}).config.strategy, "svcp");
  EXPECT_EQ(parse_deck("strategy = \"svcp\"\n", {}).config.strategy, "svcp");
  EXPECT_EQ(parse_deck("comm_method = \"svcp\"\n", {"--strategy", "svaf"}).config.strategy, "svaf");
  EXPECT_EQ(parse_deck("strategy = \"svcp\"\n", {"--comm_method", "svaf"}).config.strategy, "svaf");
  EXPECT_EQ(parse_deck("nx = 8\n", {}).config.strategy, "bspma");  // neither: the default
}

}  // namespace

// The older name is noted once for the warning (start_request.hpp), from the command line or the deck,
// and not for --strategy.
TEST(TomlDeck, TheOlderNameIsNotedForItsWarning) {
  auto older = [](const std::string& deck, std::vector<std::string> flags) {
    const std::string path = testing::TempDir() + "amp_toml_deck_older_name.toml";
    std::ofstream(path) << deck;
    amp::ghost::GhostConfig config;
    amp::ghost::RawGhostFlags raw;
    CLI::App app;
    amp::CommonOptions common;
    amp::add_common_options(app, common);
    amp::ghost::add_ghost_options(app, config, raw);
    std::vector<std::string> args = {"amp-ghost", "--input", path};
    args.insert(args.end(), flags.begin(), flags.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    const amp::StartRequest request = amp::parse_start_request(app, static_cast<int>(argv.size()), argv.data());
    std::remove(path.c_str());
    EXPECT_EQ(request.problem, "");
    return request.older_strategy_name;
  };
  EXPECT_TRUE(older("nx = 8\n", {"--comm_method", "svaf"}));
  EXPECT_TRUE(older("nx = 8\n", {"--comm_method=svaf"}));
  EXPECT_TRUE(older("comm_method = \"svcp\"\n", {}));
  EXPECT_TRUE(older("comm_method = \"svcp\"\n", {"--comm_method", "svaf"}));  // both: still one warning
  EXPECT_FALSE(older("strategy = \"svcp\"\n", {"--strategy", "svaf"}));
  EXPECT_FALSE(older("nx = 8\n", {}));
}
