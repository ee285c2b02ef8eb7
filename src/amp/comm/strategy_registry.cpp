// SPDX-License-Identifier: BSD-3-Clause
// The table of strategies, filled by the strategy files' registrars before main() runs.
#include <amp/comm/strategy_registry.hpp>

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
}  // namespace

const StrategyRegistration* find_strategy(const std::string& name) {
  for (const StrategyRegistration& entry : table())
    if (entry.name == name) return &entry;
  return nullptr;
}

bool register_strategy(StrategyRegistration registration) {
  if (registration.name.empty() || registration.factory == nullptr || find_strategy(registration.name))
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

bool is_strategy(const std::string& name) { return find_strategy(name) != nullptr; }

std::string strategy_list() {
  std::string list;
  for (const auto& entry : table()) list += (list.empty() ? "" : ", ") + entry.name;
  return list;
}

}  // namespace amp::comm
