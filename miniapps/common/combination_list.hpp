// `--list-combinations [--json]`: what this build's comm layer registered (strategies, transports, which
// pairs fit here and why the others are refused, this MPI), for people and for every script that loops
// over combinations, so that no list of names lives outside the registrations.
#pragma once

#include <nlohmann/json.hpp>

namespace amp {

// The listing as JSON (schema in README "Strategies and transports").
nlohmann::json combination_list(const char* proxy);
// When argv asks for it: prints the listing (JSON with --json, else a table) and returns true.
bool print_combination_list(const char* proxy, int argc, char** argv);

}  // namespace amp
