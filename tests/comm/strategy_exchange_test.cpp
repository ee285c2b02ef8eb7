// SPDX-License-Identifier: BSD-3-Clause
// Every strategy over every transport that fits it, on a synthetic all-to-all plan: phase 0 moves
// strided and index-list pieces into contiguous and reversed ghost slots; phase 1 forwards what phase 0
// received back to its sender. Checks every received value over two rounds and the exact message counts,
// and counts the peers it checked, so that a check over no peer cannot pass for one. At one rank the plan
// has no link: the exchange must then send nothing and return; the ghost-landing tests skip, saying so.
#include "mirrored_values.hpp"

#include <amp/comm/combination.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>

namespace {

using amp::comm::ExchangeContext;
using amp::comm::ExchangePlan;
using amp::comm::MpiBuffers;
using amp::comm::Piece;
using amp::test::MirroredValues;

constexpr int kOwned = 64;
constexpr int kVars = 3;

struct World {
  int rank = 0, size = 1;
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  int storage() const { return kOwned + 12 * size; }
  int ghost0(int peer) const { return kOwned + 6 * peer; }             // from peer, phase 0
  int ghost1(int peer) const { return kOwned + 6 * size + 6 * peer; }  // from peer, phase 1
};

double owned_value(int rank, int v, int element, int round) {
  return 1000.0 * rank + 100.0 * v + element + 0.5 * round;
}

ExchangePlan all_to_all_plan(const World& w) {
  ExchangePlan plan;
  plan.num_vars = kVars;
  plan.num_phases = 2;
  for (int q = 0; q < w.size; ++q) {
    if (q == w.rank) continue;
    amp::comm::Link first;
    first.peer = q;
    first.phase = 0;
    first.send = {Piece::strided(q, 3, 5), Piece::index_list({20 + q, 40, 7})};
    first.recv = {Piece::strided(w.ghost0(q), 3, 1),
                  Piece::index_list({w.ghost0(q) + 5, w.ghost0(q) + 4, w.ghost0(q) + 3})};
    amp::comm::Link second;
    second.peer = q;
    second.phase = 1;
    second.send = {Piece::strided(w.ghost0(q), 6, 1)};
    second.recv = {Piece::strided(w.ghost1(q), 6, 1)};
    plan.links.push_back(first);
    plan.links.push_back(second);
  }
  return plan;
}

// What rank `me` holds in ghost0 slots from `q`: q's elements me, me+5, me+10, then 7, 40, 20+me.
std::vector<double> expected_from(int q, int me, int v, int round) {
  return {owned_value(q, v, me, round), owned_value(q, v, me + 5, round), owned_value(q, v, me + 10, round),
          owned_value(q, v, 7, round),  owned_value(q, v, 40, round),     owned_value(q, v, 20 + me, round)};
}

// Checks variable v's ghost slots in `storage` after round `round`: phase 0 from each peer, and phase 1
// what that peer received from this rank, returned; every value `added` more than its owner's element.
// Returns the number of peers checked.
int expect_ghosts_of_round(const World& w, const MirroredValues& storage, int v, int round, double added = 0) {
  int checked = 0;
  for (int q = 0; q < w.size; ++q) {
    if (q == w.rank) continue;
    ++checked;
    const auto from_q = expected_from(q, w.rank, v, round);
    const auto back = expected_from(w.rank, q, v, round);  // what q received from me, returned
    for (int n = 0; n < 6; ++n) {
      EXPECT_EQ(storage[w.ghost0(q) + n], from_q[n] + added)
          << "round " << round << " var " << v << " peer " << q << " slot " << n;
      EXPECT_EQ(storage[w.ghost1(q) + n], back[n] + added)
          << "round " << round << " var " << v << " peer " << q << " slot " << n;
    }
  }
  return checked;
}

// One rank has no peer, so no ghost: said instead of checking nothing.
constexpr const char* kNoPeer =
    "one rank: the plan has no link, so no ghost to land (MovesEveryValueAndCountsMessagesExactly "
    "checks that the exchange then sends nothing)";

// Where MPI's buffers are in a plain run of this build (asked once, after MPI_Init: gtest evaluates the
// parameter generators in InitGoogleTest).
const MpiBuffers& reached() {
  static const MpiBuffers buffers = MpiBuffers::where_mpi_reaches();
  return buffers;
}

// (strategy, transport): every combination the registry accepts.
using Combination = std::pair<std::string, std::string>;
std::vector<Combination> valid_combinations() {
  std::vector<Combination> all;
  for (const std::string& strategy : amp::comm::strategy_names())
    for (const std::string& transport : amp::comm::transport_names())
      if (amp::comm::combination_refusal(strategy, transport, reached()).empty()) all.emplace_back(strategy, transport);
  return all;
}

// One round's messages on `plan` by what the strategy's registration says it produces: one per link and
// group of variables, or one per piece and variable.
std::uint64_t messages_per_round(const std::string& strategy, const ExchangePlan& plan) {
  const amp::comm::StrategyCapabilities produces = amp::comm::find_strategy(strategy)->produces;
  if (produces.cut == amp::comm::MessageCut::kPerPiece) {
    std::uint64_t pieces = 0;
    for (const amp::comm::Link& link : plan.links) pieces += link.send.size();
    return pieces * kVars;
  }
  const int groups = produces.group_size == amp::comm::kAllVariables ? 1 : kVars / produces.group_size;
  return plan.links.size() * groups;
}

class EveryStrategy : public ::testing::TestWithParam<Combination> {
 protected:
  const std::string& strategy_name() const { return GetParam().first; }
  std::unique_ptr<amp::comm::Strategy> make(ExchangePlan plan) const {
    return amp::comm::make_strategy(GetParam().first, GetParam().second, std::move(plan),
                                    ExchangeContext(MPI_COMM_WORLD, reached(), /*moves_data=*/true));
  }
};

TEST_P(EveryStrategy, MovesEveryValueAndCountsMessagesExactly) {
  World w;
  const ExchangePlan plan = all_to_all_plan(w);
  ASSERT_EQ(plan.links.size(), 2u * (w.size - 1));
  auto strategy = make(plan);
  std::vector<MirroredValues> storage = MirroredValues::several(kVars, w.storage(), -1.0);
  int checked = 0;
  for (int round = 0; round < 2; ++round) {
    for (int v = 0; v < kVars; ++v) {
      for (int e = 0; e < kOwned; ++e) storage[v][e] = owned_value(w.rank, v, e, round);
      strategy->computed(v, storage[v].written());
    }
    for (int v = 0; v < kVars; ++v) {
      strategy->need_ghosts(v);
      checked += expect_ghosts_of_round(w, storage[v].read(), v, round);
    }
  }
  const std::uint64_t peers = w.size - 1;
  EXPECT_EQ(checked, static_cast<int>(2 * kVars * peers));
  EXPECT_EQ(strategy->traffic().messages, 2 * messages_per_round(strategy_name(), plan));
  EXPECT_EQ(strategy->traffic().bytes, 2 * peers * kVars * 12 * sizeof(double));
}

// The proxies' pattern over `rounds` rounds: each variable's ghosts are awaited just before its update,
// and its new values go to the other of two storages right after, so round r + 1 is being computed
// while round r's later variables are still unread. Every ghost must land in the storage the variable
// had when computed, `added(round)` above its owner's value. `before_computed(v, round)` runs just
// before each computed().
// Checks that every variable of every round was checked against every peer.
void run_in_proxies_pattern(const World& w, amp::comm::Strategy& strategy, int rounds,
                            const std::function<void(int, int)>& before_computed,
                            const std::function<double(int)>& added) {
  int checked = 0;
  std::vector<MirroredValues> storage[2];
  for (auto& s : storage) s = MirroredValues::several(kVars, w.storage(), -1.0);
  auto compute = [&](int v, int round) {
    MirroredValues& s = storage[round % 2][v];
    for (int e = 0; e < kOwned; ++e) s[e] = owned_value(w.rank, v, e, round);
    s.written();
    before_computed(v, round);
    strategy.computed(v, s.device);
  };
  for (int v = 0; v < kVars; ++v) compute(v, 0);
  for (int round = 0; round < rounds; ++round) {
    for (int v = 0; v < kVars; ++v) {
      strategy.need_ghosts(v);
      checked += expect_ghosts_of_round(w, storage[round % 2][v].read(), v, round, added(round));
      if (round + 1 < rounds) compute(v, round + 1);
    }
  }
  strategy.finish();
  EXPECT_EQ(checked, rounds * kVars * (w.size - 1));
}

TEST_P(EveryStrategy, GhostsLandInTheirRoundsStorageWhileTheNextRoundIsComputed) {
  World w;
  if (w.size == 1) GTEST_SKIP() << kNoPeer;
  auto strategy = make(all_to_all_plan(w));
  run_in_proxies_pattern(
      w, *strategy, 3, [](int, int) {}, [](int) { return 0.0; });
}

// A proxy may write a link's send pieces into the slot itself while it computes them (amp-ghost's sweep
// writes its yz faces so): that slot then goes as written, not packed from storage, and a later round
// without it packs again. Rounds 0 and 2 fill each phase-0 slot with values a quarter above storage's;
// the in-place transport has no slot to fill, and no link of a later phase gives one out.
TEST_P(EveryStrategy, ASlotTheProxyFilledGoesAsFilled) {
  World w;
  if (w.size == 1) GTEST_SKIP() << kNoPeer;
  const ExchangePlan plan = all_to_all_plan(w);
  auto strategy = make(plan);
  const bool in_place = GetParam().second == "datatype";
  const double filled = 0.25;
  auto fill_slots = [&](int v, int round) {
    if (round % 2 != 0) return;
    for (int l = 0; l < static_cast<int>(plan.links.size()); ++l) {
      const amp::comm::VariableView slot = strategy->send_slot_to_fill(l, v);
      if (plan.links[l].phase != 0 || in_place) {
        EXPECT_EQ(slot.data(), nullptr) << "link " << l;
        continue;
      }
      ASSERT_NE(slot.data(), nullptr) << "link " << l;
      std::vector<std::int64_t> elements;
      for (const Piece& piece : plan.links[l].send) piece.append_elements(elements);
      ASSERT_EQ(slot.extent(0), elements.size()) << "link " << l;
      const auto slot_host = Kokkos::create_mirror(slot);
      for (std::size_t n = 0; n < elements.size(); ++n)
        slot_host(n) = owned_value(w.rank, v, static_cast<int>(elements[n]), round) + filled;
      Kokkos::deep_copy(slot, slot_host);
    }
  };
  run_in_proxies_pattern(w, *strategy, 3, fill_slots,
                         [&](int round) { return round % 2 == 0 && !in_place ? filled : 0.0; });
  // Counted as filled: 6 elements per peer and variable in rounds 0 and 2, none with nothing to fill.
  const std::uint64_t peers = w.size - 1;
  EXPECT_EQ(strategy->times().filled, in_place ? 0 : 2 * peers * kVars * 6);
}

// Rank r sends r + 1 single-element pieces to every peer, so on each link a rank sends and receives
// different numbers of pieces (as amp-sage's irregular partitions do).
TEST_P(EveryStrategy, SendAndReceivePieceCountsMayDifferOnALink) {
  World w;
  if (w.size == 1) GTEST_SKIP() << kNoPeer;
  ExchangePlan plan;
  plan.num_vars = 2;
  const int slots = 8;  // ghost slots per peer, at kOwned + slots * peer
  for (int q = 0; q < w.size; ++q) {
    if (q == w.rank) continue;
    amp::comm::Link link;
    link.peer = q;
    for (int p = 0; p <= w.rank; ++p) link.send.push_back(Piece::strided(3 * p + q, 1));
    for (int p = 0; p <= q; ++p) link.recv.push_back(Piece::strided(kOwned + slots * q + p, 1));
    plan.links.push_back(link);
  }
  auto strategy = make(plan);
  std::vector<MirroredValues> storage = MirroredValues::several(2, kOwned + slots * w.size, -1.0);
  for (int v = 0; v < 2; ++v) {
    for (int e = 0; e < kOwned; ++e) storage[v][e] = owned_value(w.rank, v, e, 0);
    strategy->computed(v, storage[v].written());
  }
  int checked = 0, expected = 0;
  for (int v = 0; v < 2; ++v) {
    strategy->need_ghosts(v);
    storage[v].read();
    for (int q = 0; q < w.size; ++q) {
      if (q != w.rank) expected += q + 1;
      for (int p = 0; q != w.rank && p <= q; ++p, ++checked)
        EXPECT_EQ(storage[v][kOwned + slots * q + p], owned_value(q, v, 3 * p + w.rank, 0)) << "peer " << q;
    }
  }
  EXPECT_EQ(checked, expected);
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(StrategiesOverTransports, EveryStrategy, ::testing::ValuesIn(valid_combinations()),
                         [](const auto& info) { return info.param.first + "_" + info.param.second; });

// Every pair fits() refuses with these buffers (a cut per piece over neighbour collectives, a transport
// newer than this MPI; with staged buffers an in-place transport too) is refused by make_strategy, before
// anything is built, with exactly fits()'s reason, which names the transports that fit.
void expect_refusals_as_fits_says(const MpiBuffers& buffers) {
  int refused = 0;
  for (const amp::comm::StrategyRegistration& strategy : amp::comm::registered_strategies())
    for (const std::string& transport : amp::comm::transport_names()) {
      const std::string refusal = amp::comm::combination_refusal(strategy.name, transport, buffers);
      if (refusal.empty()) continue;
      ++refused;
      try {
        amp::comm::make_strategy(strategy.name, transport, ExchangePlan{},
                                 ExchangeContext(MPI_COMM_WORLD, buffers, /*moves_data=*/true));
        ADD_FAILURE() << strategy.name << "/" << transport << ": no exception";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), refusal);
        EXPECT_NE(refusal.find(amp::comm::transports_fitting(strategy, buffers) + ")"), std::string::npos) << refusal;
      }
    }
  EXPECT_GE(refused, 1);  // a cut per piece over neighbour collectives; staged: the in-place transport
}

TEST(StrategyRegistry, TransportThatDoesNotFitIsRejectedNamingThoseThatFit) { expect_refusals_as_fits_says(reached()); }

TEST(StrategyRegistry, StagedBuffersRejectInPlaceTransports) {
  expect_refusals_as_fits_says(MpiBuffers::staged_through_host("test"));
}

TEST(StrategyRegistry, UnknownNameIsRejectedWithTheKnownNames) {
  try {
    amp::comm::make_strategy("carrier-pigeon", "isend", ExchangePlan{}, ExchangeContext(MPI_COMM_WORLD));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("(known: " + amp::comm::strategy_list() + ")"), std::string::npos) << e.what();
  }
}

}  // namespace
