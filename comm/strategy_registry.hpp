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
// Builds the strategy with its transport and sets the transport up (collective over MPI_COMM_WORLD).
// Throws std::invalid_argument for an unknown name or a transport that does not fit the strategy.
std::unique_ptr<Strategy> make_strategy(const std::string& name, const std::string& transport, ExchangePlan plan);

}  // namespace amp::comm
