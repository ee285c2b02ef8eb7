// SPDX-License-Identifier: BSD-3-Clause
// Mechanics shared by the single-variable strategies (SVAF, SVCP): each variable's boundary goes out
// the moment it is computed and its ghosts are awaited only when that variable is next needed. Each
// variable is its own group, so a batch is one variable's messages of one phase. SVAF and SVCP differ
// only in how a link's pieces are cut into messages.
#pragma once

#include <amp/comm/capabilities.hpp>
#include <amp/comm/strategy.hpp>
#include <amp/comm/impl/exchange_state.hpp>

#include <vector>

namespace amp::comm {

// What they produce (their registrations say it): one variable per group, cut per link or per piece.
constexpr StrategyCapabilities kOneVariablePerLink{MessageCut::kPerLink, 1};
constexpr StrategyCapabilities kOneVariablePerPiece{MessageCut::kPerPiece, 1};

class PerVariableExchange : public Strategy {
 public:
  void exchange_computed(int v) override;
  void need_ghosts(int v) override;

 protected:
  // one_message_per_piece: SVCP (each piece its own message, straight from memory when contiguous
  // and the transport allows it); otherwise SVAF (all pieces of a variable on a link in one message).
  PerVariableExchange(ExchangePlan plan, bool one_message_per_piece, const TransportRegistration& transport,
                      const ExchangeContext& context);
  bool in_flight(int v) const override { return pending_[v]; }

 private:
  void send_phase(int v, int phase);

  std::vector<char> pending_;
};

}  // namespace amp::comm
