// SPDX-License-Identifier: BSD-3-Clause
// SVAF - single variable, aggregated faces: one message per neighbour per variable (per phase),
// sent from a face buffer the moment that variable is computed; the next variable's compute overlaps it.
#include <amp/comm/strategies/per_variable_exchange.hpp>
#include <amp/comm/strategy_registry.hpp>

namespace amp::comm {

namespace {
class Svaf final : public PerVariableExchange {
 public:
  Svaf(ExchangePlan plan, const TransportRegistration& transport, const ExchangeContext& context)
      : PerVariableExchange(std::move(plan), /*one_message_per_piece=*/false, transport, context) {}
  std::string name() const override { return "svaf"; }
};
}  // namespace

namespace {
std::unique_ptr<Strategy> make_svaf(ExchangePlan plan, const TransportRegistration& transport,
                                    const ExchangeContext& context) {
  return std::make_unique<Svaf>(std::move(plan), transport, context);
}

const bool registered = register_strategy({"svaf",
                                           "single variable, aggregated faces: one message per neighbour, variable and "
                                           "phase, sent as that variable is computed",
                                           make_svaf, kOneVariablePerLink});
}  // namespace

}  // namespace amp::comm
