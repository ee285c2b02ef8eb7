// SPDX-License-Identifier: BSD-3-Clause
// `--list-combinations [--json]`: what this build's comm layer registered (strategies, transports, which
// pairs fit here and why the others are refused, this MPI), for people and for every script that loops
// over combinations, so that no list of names lives outside the registrations.
// The flags are the proxy's own: the listing is printed after the rest of the command line was
// checked as for a run (one line, exit 2 otherwise), by rank 0 alone.
#pragma once

#include <amp/miniapps/common/environment.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace amp {

struct ListingOptions {
  bool list = false;  // --list-combinations
  bool json = false;  // --json
};
void add_listing_options(CLI::App& app, ListingOptions& options);

// The listing as JSON (schema in README "Strategies and transports"), for strategies built in `context`.
nlohmann::json combination_list(const char* proxy, const comm::ExchangeContext& context);
// When the flags ask for it: rank 0 prints the listing (JSON with --json, else a table), every rank
// returns true. InputError for flags that a listing cannot honour (--trace, --plan-only, --synthesize).
bool print_combination_list(const char* proxy, const ListingOptions& options, const Environment& env);

}  // namespace amp
