// SPDX-License-Identifier: BSD-3-Clause
// Strategies by the names users type (--strategy). Each strategy file under strategies/ registers
// itself with a static registrar (`const bool registered = register_strategy({...});`) that also says
// what its messages are (capabilities.hpp), so adding a strategy is that one file: the help text,
// --list-combinations and the scripts read this registry. A strategy is built with the transport that
// moves its messages (transport_registry.hpp), in the context its caller decided (exchange_context.hpp),
// by combination.hpp's make_strategy, which checks the pair first.
#pragma once

#include <amp/comm/capabilities.hpp>
#include <amp/comm/exchange_context.hpp>
#include <amp/comm/strategy.hpp>

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

// What a strategy file says of itself.
struct StrategyRegistration {
  std::string name;         // what --strategy takes
  std::string description;  // one line, for --help and --list-combinations
  std::unique_ptr<Strategy> (*factory)(ExchangePlan plan, const TransportRegistration& transport,
                                       const ExchangeContext& context);
  StrategyCapabilities produces;  // what its messages are: what a transport's needs are compared with
};

// Adds a strategy (called from a static initializer); a second one of the same name is a logic_error.
// Returns true so that it can initialise the registrar constant.
bool register_strategy(StrategyRegistration registration);
// Every registered strategy, by name.
std::vector<StrategyRegistration> registered_strategies();
// The registered strategy of that name; null when there is none.
const StrategyRegistration* find_strategy(const std::string& name);

std::vector<std::string> strategy_names();
bool is_strategy(const std::string& name);
// "bspma, svaf, svcp": the names, for messages.
std::string strategy_list();

}  // namespace amp::comm
