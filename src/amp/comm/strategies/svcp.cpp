// SPDX-License-Identifier: BSD-3-Clause
// SVCP - single variable, contiguous pieces: every piece is its own message; contiguous pieces (xy
// planes, x rows, runs of cells) go straight from memory with no buffer (when the transport can),
// strided ones are packed each.
#include <amp/comm/strategies/per_variable_exchange.hpp>
#include <amp/comm/strategy_registry.hpp>

namespace amp::comm {

namespace {
class Svcp final : public PerVariableExchange {
 public:
  Svcp(ExchangePlan plan, const TransportRegistration& transport, const ExchangeContext& context)
      : PerVariableExchange(std::move(plan), /*one_message_per_piece=*/true, transport, context) {}
  std::string name() const override { return "svcp"; }
};
}  // namespace

namespace {
std::unique_ptr<Strategy> make_svcp(ExchangePlan plan, const TransportRegistration& transport,
                                    const ExchangeContext& context) {
  return std::make_unique<Svcp>(std::move(plan), transport, context);
}

const bool registered = register_strategy(
    {"svcp", "single variable, contiguous pieces: every piece its own message, contiguous ones straight from memory",
     make_svcp, kOneVariablePerPiece});
}  // namespace

}  // namespace amp::comm
