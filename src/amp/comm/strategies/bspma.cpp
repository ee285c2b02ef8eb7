// SPDX-License-Identifier: BSD-3-Clause
// BSPMA - bulk synchronous, message aggregation: each variable's faces are packed into one buffer per
// neighbour as it is computed; one message per neighbour (per phase) goes once all variables are done.
// All variables travel as one group, so each phase is one batch.
#include <amp/comm/strategy.hpp>

#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/impl/exchange_state.hpp>

namespace amp::comm {

namespace {

// One message per link and phase, all variables in one group.
constexpr StrategyCapabilities kProduces{MessageCut::kPerLink, kAllVariables};

class Bspma final : public Strategy {
 public:
  Bspma(ExchangePlan plan, const TransportRegistration& transport, const ExchangeContext& context)
      : Strategy(std::move(plan), kProduces.group_size, transport, context) {
    // One per link each way: all variables, all pieces (a link may send and receive different piece counts).
    for (int l = 0; l < num_links(); ++l) {
      const LinkData& ld = link(l);
      state().add_send({l, 0, num_vars(), 0, ld.send_pieces(), false, tag_for(ld.phase, 0)});
      state().add_recv({l, 0, num_vars(), 0, ld.recv_pieces(), false, tag_for(ld.phase, 0)});
    }
  }

  std::string name() const override { return "bspma"; }

  // computed() sets the storage first: a transport that receives in place (datatype) with one variable
  // starts the receives here, into this storage.
  void exchange_computed(int v) override {
    if (computed_count_ == 0)
      for (int phase = 0; phase < num_phases(); ++phase) start_receives(0, phase);
    for (int l : links_in_phase(0)) pack(l, v);
    if (++computed_count_ < num_vars()) return;
    send(0, 0);
    computed_count_ = 0;
    pending_ = true;
  }

  void need_ghosts(int) override {
    if (!pending_) return;  // this round's ghosts are all in (or the next round is being computed)
    for (int phase = 0; phase < num_phases(); ++phase) {
      complete_receives(0, phase);
      for (int l : links_in_phase(phase))
        for (int v = 0; v < num_vars(); ++v) unpack(l, v);
      release_receives(0, phase);
      if (phase + 1 == num_phases()) break;
      for (int l : links_in_phase(phase + 1))
        for (int v = 0; v < num_vars(); ++v) pack(l, v);
      send(0, phase + 1);
    }
    complete_sends(0);
    pending_ = false;
  }

 protected:
  bool in_flight(int) const override { return pending_; }

 private:
  int computed_count_ = 0;
  bool pending_ = false;
};

}  // namespace

namespace {
std::unique_ptr<Strategy> make_bspma(ExchangePlan plan, const TransportRegistration& transport,
                                     const ExchangeContext& context) {
  return std::make_unique<Bspma>(std::move(plan), transport, context);
}

const bool registered = register_strategy({"bspma",
                                           "bulk synchronous: all variables of a link in one message per neighbour and "
                                           "phase, sent once every variable is computed",
                                           make_bspma, kProduces});
}  // namespace

}  // namespace amp::comm
