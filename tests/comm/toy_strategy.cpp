// SPDX-License-Identifier: BSD-3-Clause
// A toy strategy that lives in the test tree, to show that a strategy is one file: it registers itself
// like those under comm/strategies, and the test builds of the proxies that link it (amp-ghost-with-toy
// and its siblings, tests/comm/CMakeLists.txt) list it, check it and run it with no change elsewhere.
// Its cut: one message per variable per link, as SVAF, but nothing goes at computed(v); the messages go
// at the next need_ghosts() (a lazy exchange with no overlap with compute). That call sends every
// computed variable's first phase before it waits for any, since MPICH 4.0's partitioned requests move
// a link's data only once every partition of it is ready.
#include <amp/comm/strategy.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/impl/exchange_state.hpp>

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

namespace {

// What its registration says it produces: SVAF's cut, one variable per group, one message per link.
constexpr StrategyCapabilities kProduces{MessageCut::kPerLink, 1};

class ToyStrategy final : public Strategy {
 public:
  ToyStrategy(ExchangePlan plan, const TransportRegistration& transport, const ExchangeContext& context)
      : Strategy(std::move(plan), kProduces.group_size, transport, context) {
    unsent_.assign(num_vars(), 0);
    waiting_.assign(num_vars(), 0);
    for (int l = 0; l < num_links(); ++l) {
      const LinkData& ld = link(l);
      for (int v = 0; v < num_vars(); ++v) {
        state().add_send({l, v, 1, 0, ld.send_pieces(), false, tag_for(ld.phase, v)});
        state().add_recv({l, v, 1, 0, ld.recv_pieces(), false, tag_for(ld.phase, v)});
      }
    }
  }

  std::string name() const override { return "toy"; }

  void exchange_computed(int v) override { unsent_[v] = 1; }

  void need_ghosts(int v) override {
    for (int u = 0; u < num_vars(); ++u)
      if (unsent_[u]) send_first_phase(u);
    if (!waiting_[v]) return;
    for (int phase = 0; phase < num_phases(); ++phase) {
      complete_receives(v, phase);
      for (int l : links_in_phase(phase)) unpack(l, v);
      release_receives(v, phase);
      if (phase + 1 < num_phases()) send_phase(v, phase + 1);
    }
    complete_sends(v);
    waiting_[v] = 0;
  }

 protected:
  bool in_flight(int v) const override { return unsent_[v] != 0 || waiting_[v] != 0; }

 private:
  void send_phase(int v, int phase) {
    for (int l : links_in_phase(phase)) pack(l, v);
    send(v, phase);
  }

  void send_first_phase(int v) {
    for (int phase = 0; phase < num_phases(); ++phase) start_receives(v, phase);
    send_phase(v, 0);
    unsent_[v] = 0;
    waiting_[v] = 1;
  }

  std::vector<char> unsent_;   // computed, its messages not sent yet
  std::vector<char> waiting_;  // sent, its ghosts not received yet
};

std::unique_ptr<Strategy> make_toy(ExchangePlan plan, const TransportRegistration& transport,
                                   const ExchangeContext& context) {
  return std::make_unique<ToyStrategy>(std::move(plan), transport, context);
}

const bool registered = register_strategy(
    {"toy", "test only: one message per variable per link, sent when the ghosts are needed", make_toy, kProduces});

}  // namespace

}  // namespace amp::comm
