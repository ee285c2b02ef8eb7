// The table of strategies: name -> factory.
#include "strategy_registry.hpp"

#include "strategies/strategy_factories.hpp"

#include <stdexcept>
#include <utility>

namespace amp::comm {

namespace {
using Factory = std::unique_ptr<Strategy> (*)(ExchangePlan, const std::string&, MPI_Comm);
const std::vector<std::pair<std::string, Factory>>& registry() {
  static const std::vector<std::pair<std::string, Factory>> table = {
      {"bspma", make_bspma},
      {"svaf", make_svaf},
      {"svcp", make_svcp},
  };
  return table;
}
}  // namespace

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.first);
  return names;
}

bool is_strategy(const std::string& name) {
  for (const auto& entry : registry())
    if (entry.first == name) return true;
  return false;
}

std::string strategy_list() {
  std::string list;
  for (const auto& entry : registry()) list += (list.empty() ? "" : ", ") + entry.first;
  return list;
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, const std::string& transport, ExchangePlan plan,
                                        MPI_Comm comm) {
  for (const auto& entry : registry()) {
    if (entry.first != name) continue;
    std::unique_ptr<Strategy> strategy = entry.second(std::move(plan), transport, comm);
    strategy->set_up_transport();
    return strategy;
  }
  throw std::invalid_argument("unknown communication strategy '" + name + "' (known: " + strategy_list() + ")");
}

}  // namespace amp::comm
