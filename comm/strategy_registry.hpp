// Strategies by the names users type (--comm_method bspma|svaf|svcp). Adding a strategy is a new file
// under strategies/ plus one line in strategy_registry.cpp; no proxy changes. A strategy is built with
// the transport that moves its messages (transport_registry.hpp).
#pragma once

#include "strategy.hpp"

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

std::vector<std::string> strategy_names();
bool is_strategy(const std::string& name);
// "bspma, svaf, svcp": the names, for messages.
std::string strategy_list();
// Builds the strategy with its transport on a duplicate of `comm` (the plan's peers are ranks of
// `comm`) and sets the transport up; collective over `comm`. Throws std::invalid_argument for an unknown
// name or a transport that does not fit the strategy.
std::unique_ptr<Strategy> make_strategy(const std::string& name, const std::string& transport, ExchangePlan plan,
                                        MPI_Comm comm);

}  // namespace amp::comm
