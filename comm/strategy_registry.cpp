// The table of strategies, filled by the strategy files' registrars before main() runs.
#include "strategy_registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace amp::comm {

namespace {
// Built on first use, so that registrars in any translation unit find it constructed.
std::vector<StrategyRegistration>& table() {
  static std::vector<StrategyRegistration> strategies;
  return strategies;
}

const StrategyRegistration* find(const std::string& name) {
  for (const StrategyRegistration& entry : table())
    if (entry.name == name) return &entry;
  return nullptr;
}
}  // namespace

bool register_strategy(StrategyRegistration registration) {
  if (registration.name.empty() || registration.factory == nullptr || find(registration.name))
    throw std::logic_error("strategy '" + registration.name + "' registered twice, or without a name or factory");
  auto& strategies = table();
  strategies.push_back(std::move(registration));
  std::sort(strategies.begin(), strategies.end(),
            [](const StrategyRegistration& a, const StrategyRegistration& b) { return a.name < b.name; });
  return true;
}

std::vector<StrategyRegistration> registered_strategies() { return table(); }

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const auto& entry : table()) names.push_back(entry.name);
  return names;
}

bool is_strategy(const std::string& name) { return find(name) != nullptr; }

std::string strategy_list() {
  std::string list;
  for (const auto& entry : table()) list += (list.empty() ? "" : ", ") + entry.name;
  return list;
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, const std::string& transport, ExchangePlan plan,
                                        MPI_Comm comm) {
  const StrategyRegistration* entry = find(name);
  if (!entry)
    throw std::invalid_argument("unknown communication strategy '" + name + "' (known: " + strategy_list() + ")");
  std::unique_ptr<Strategy> strategy = entry->factory(std::move(plan), transport, comm);
  strategy->set_up_transport();
  return strategy;
}

}  // namespace amp::comm
