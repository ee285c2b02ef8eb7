// SPDX-License-Identifier: BSD-3-Clause
// fits(): a strategy's capabilities against a transport's needs, this MPI and the context; the checked pair
// and make_strategy, which builds it (combination.hpp).
#include <amp/comm/combination.hpp>

#include <mpi.h>

#include <stdexcept>
#include <utility>

namespace amp::comm {

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// The cut, and the pacing: a strategy that exchanges link by link needs a transport that can.
bool cut_meets_need(const StrategyRegistration& strategy, const TransportRegistration& transport) {
  const bool cut = transport.needs == CutNeeded::kAny || strategy.produces.cut == MessageCut::kPerLink;
  return cut && (strategy.produces.pacing == Pacing::kByBatch || transport.moves_link_by_link);
}

// The strategies whose messages the transport can move, whatever the MPI or the context.
std::string strategies_cut_for(const TransportRegistration& transport) {
  std::vector<std::string> names;
  for (const StrategyRegistration& strategy : registered_strategies())
    if (cut_meets_need(strategy, transport)) names.push_back(strategy.name);
  return join(names);
}

}  // namespace

bool fits(const StrategyRegistration& strategy, const TransportRegistration& transport, const MpiBuffers& buffers,
          std::string* why) {
  const std::string& s = strategy.name;
  const std::string& t = transport.name;
  // An in-place transport gives MPI the variables' storage, which it cannot reach when staged.
  const bool reaches_the_data = transport.data_access != DataAccess::kInPlace || !buffers.staged();
  const bool fit = transport.mpi_version <= MPI_VERSION && cut_meets_need(strategy, transport) && reaches_the_data;
  if (fit || why == nullptr) return fit;
  const std::string instead = transports_fitting(strategy, buffers);
  if (transport.mpi_version > MPI_VERSION)
    *why = "transport '" + t + "' needs MPI " + std::to_string(transport.mpi_version) + ".0, this MPI is " +
           std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION) + " (with " + s + " use " + instead + ")";
  else if (!cut_meets_need(strategy, transport))
    *why = "transport '" + t + "' does not fit strategy '" + s + "' (" + t + " fits " + strategies_cut_for(transport) +
           "; " + s + " fits " + instead + ")";
  else
    *why = "transport '" + t + "' hands MPI the variables' storage in place, and MPI's buffers are " +
           buffers.description() + " (with " + s + " use " + instead + ")";
  return false;
}

std::string transports_fitting(const StrategyRegistration& strategy, const MpiBuffers& buffers) {
  std::vector<std::string> names;
  for (const TransportRegistration& transport : registered_transports())
    if (fits(strategy, transport, buffers)) names.push_back(transport.name);
  return join(names);
}

Combination checked_combination(const std::string& strategy, const std::string& transport, const MpiBuffers& buffers) {
  const StrategyRegistration* strategy_entry = find_strategy(strategy);
  if (strategy_entry == nullptr)
    throw UnknownName("strategy", strategy, strategy_list(),
                      "unknown communication strategy '" + strategy + "' (known: " + strategy_list() + ")");
  const TransportRegistration* transport_entry = find_transport(transport);
  if (transport_entry == nullptr)
    throw UnknownName("transport", transport, transport_list(),
                      "unknown transport '" + transport + "' (use " + transport_list() + ")");
  std::string why;
  if (!fits(*strategy_entry, *transport_entry, buffers, &why)) throw std::invalid_argument(why);
  return Combination(strategy_entry, transport_entry);
}

std::string combination_refusal(const std::string& strategy, const std::string& transport, const MpiBuffers& buffers) {
  const StrategyRegistration* strategy_entry = find_strategy(strategy);
  const TransportRegistration* transport_entry = find_transport(transport);
  std::string why;
  if (strategy_entry == nullptr || transport_entry == nullptr || fits(*strategy_entry, *transport_entry, buffers, &why))
    return "";
  return why;
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, const std::string& transport, ExchangePlan plan,
                                        const ExchangeContext& context) {
  return make_strategy(checked_combination(name, transport, context.buffers), std::move(plan), context);
}

std::unique_ptr<Strategy> make_strategy(const Combination& combination, ExchangePlan plan,
                                        const ExchangeContext& context) {
  if (combination.strategy() == nullptr) throw std::logic_error("make_strategy: the combination was never checked");
  std::unique_ptr<Strategy> made = combination.strategy()->factory(std::move(plan), *combination.transport(), context);
  made->set_up_transport();
  return made;
}

}  // namespace amp::comm
