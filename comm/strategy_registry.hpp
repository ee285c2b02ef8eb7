// Strategies by the names users type (--comm_method bspma|svaf|svcp). Adding a strategy is a new file
// under strategies/ plus one line in strategy_registry.cpp; no proxy changes.
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
// Throws std::invalid_argument for an unknown name.
std::unique_ptr<Strategy> make_strategy(const std::string& name, ExchangePlan plan);

}  // namespace amp::comm
