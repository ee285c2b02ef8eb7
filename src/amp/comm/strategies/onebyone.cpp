// SPDX-License-Identifier: BSD-3-Clause
// onebyone - BSPMA's messages exchanged with one neighbour at a time, as the CTH of the seeds does ("each
// process communicates with one neighbor at a time"): the same cut as bspma (one message per neighbour
// and phase with every variable, packed as each variable is computed, the same tags, sizes and counts),
// but once the last variable is computed the rank exchanges with its neighbours one after another: post
// the receive from neighbour k and the send to it, wait for both, then neighbour k + 1. Phase by phase,
// as bspma: all of a phase's links are packed before its first exchange and unpacked after its last.
//
// The order cannot deadlock on any plan. Every link is one edge {rank, peer} of one phase, and both ends
// compute the same key for it: (phase, d = |rank - peer|, (min / d) mod 2, min). The key is a total order
// on the edges (phase, d and min give the edge), and each rank takes its edges in increasing key. The
// smallest edge not yet done is then the next edge of both its ends, so those two meet on it, and so on
// until every edge is done: whatever the grid, periodic or not, with ranks missing neighbours at a
// boundary, a peer on two sides (two ranks on a periodic axis), or an irregular AMR plan.
// The middle terms keep the pairs meeting at once on a grid: ranks numbered x fastest give all links of
// one axis (or diagonal) the same d, and (min / d) mod 2 is the lower end's coordinate parity along it on
// even extents, so a row exchanges in two rounds (even-odd pairs, then odd-even) instead of a wave from
// one end to the other. Counted edge rounds on an 8x8x16 grid: 6 for 6 neighbours (the least possible)
// and 26 for 26 (41 periodic); ordered by (phase, min, max) alone they were 29 and 323 (2035 periodic).
//
// It needs a transport that can move one link's messages on its own (Transport::exchange_link;
// registration moves_link_by_link): the others are refused at start-up by combination.hpp's fits().
#include <amp/comm/strategy.hpp>

#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/impl/exchange_state.hpp>

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace amp::comm {

namespace {

// bspma's messages (one per link and phase, all variables in one group), paced one link at a time.
constexpr StrategyCapabilities kProduces{MessageCut::kPerLink, kAllVariables, Pacing::kLinkByLink};

class OneByOne final : public Strategy {
 public:
  OneByOne(ExchangePlan plan, const TransportRegistration& transport, const ExchangeContext& context)
      : Strategy(std::move(plan), kProduces.group_size, transport, context) {
    for (int l = 0; l < num_links(); ++l) {
      const LinkData& ld = link(l);
      state().add_send({l, 0, num_vars(), 0, ld.send_pieces(), false, tag_for(ld.phase, 0)});
      state().add_recv({l, 0, num_vars(), 0, ld.recv_pieces(), false, tag_for(ld.phase, 0)});
    }
    const int rank = state().communicator().rank();
    auto key = [&](int l) {
      const int peer = link(l).peer, low = std::min(rank, peer), distance = std::abs(rank - peer);
      return std::make_tuple(link(l).phase, distance, (low / distance) % 2, low);
    };
    for (int phase = 0; phase < num_phases(); ++phase) {
      std::vector<int> order = links_in_phase(phase);
      std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
      order_.push_back(std::move(order));
    }
  }

  std::string name() const override { return "onebyone"; }

  // Packs v's phase-0 slots; once every variable is in, exchanges every phase, one link at a time.
  void exchange_computed(int v) override {
    for (int l : links_in_phase(0)) pack(l, v);
    if (++computed_count_ < num_vars()) return;
    computed_count_ = 0;
    for (int phase = 0; phase < num_phases(); ++phase) {
      if (phase > 0)
        for (int l : links_in_phase(phase))
          for (int u = 0; u < num_vars(); ++u) pack(l, u);
      exchange_link_by_link(0, phase, order_[phase]);
      for (int l : links_in_phase(phase))
        for (int u = 0; u < num_vars(); ++u) unpack(l, u);
    }
  }

  // Every exchange completed when the last variable was computed.
  void need_ghosts(int) override {}

 protected:
  bool in_flight(int) const override { return false; }

 private:
  std::vector<std::vector<int>> order_;  // [phase]: its links in the order every rank agrees on
  int computed_count_ = 0;
};

std::unique_ptr<Strategy> make_onebyone(ExchangePlan plan, const TransportRegistration& transport,
                                        const ExchangeContext& context) {
  return std::make_unique<OneByOne>(std::move(plan), transport, context);
}

const bool registered = register_strategy(
    {"onebyone",
     "bspma's messages (one per neighbour and phase, every variable), exchanged with one neighbour at a time "
     "(CTH's way)",
     make_onebyone, kProduces});

}  // namespace

}  // namespace amp::comm
