// Strategies by the names users type (--comm_method). Each strategy file under strategies/ registers
// itself with a static registrar (`const bool registered = register_strategy({...});`), so adding a
// strategy is that one file: the help text, --list-combinations and the scripts read this registry.
// A strategy is built with the transport that moves its messages (transport_registry.hpp).
#pragma once

#include "strategy.hpp"

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

// What a strategy file says of itself.
struct StrategyRegistration {
  std::string name;         // what --comm_method takes
  std::string description;  // one line, for --help and --list-combinations
  std::unique_ptr<Strategy> (*factory)(ExchangePlan plan, const std::string& transport, MPI_Comm comm);
};

// Adds a strategy (called from a static initializer); a second one of the same name is a logic_error.
// Returns true so that it can initialise the registrar constant.
bool register_strategy(StrategyRegistration registration);
// Every registered strategy, by name.
std::vector<StrategyRegistration> registered_strategies();

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
