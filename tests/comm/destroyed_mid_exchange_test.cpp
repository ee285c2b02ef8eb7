// SPDX-License-Identifier: BSD-3-Clause
// A strategy destroyed with its exchange in flight (every variable computed, no ghosts awaited): the
// request transports (isend, persistent, datatype) cancel and complete their requests, and rma its
// notices, before the areas go. Messages of 1 MiB (MPI's rendezvous path: data moves only once both sides progress),
// and the storage freed right after; then MPI progresses (a barrier and a whole second exchange, whose values are
// checked). Had a request survived, MPI would move its data into or out of freed memory.
#include "mirrored_values.hpp"

#include <amp/comm/combination.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using amp::test::MirroredValues;

using amp::comm::ExchangePlan;
using amp::comm::Piece;

constexpr std::int64_t kElements = 1 << 17;  // 1 MiB of doubles per message
constexpr int kVars = 2;

struct Ranks {
  int rank = 0, size = 1;
  Ranks() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  // Owned elements [0, kElements), then one ghost slot of kElements per rank.
  std::int64_t storage() const { return kElements * (1 + size); }
  std::int64_t ghost(int peer) const { return kElements * (1 + peer); }
};

ExchangePlan one_piece_to_every_peer(const Ranks& r) {
  ExchangePlan plan;
  plan.num_vars = kVars;
  for (int q = 0; q < r.size; ++q) {
    if (q == r.rank) continue;
    amp::comm::Link link;
    link.peer = q;
    link.send = {Piece::strided(0, kElements)};
    link.recv = {Piece::strided(r.ghost(q), kElements)};
    plan.links.push_back(link);
  }
  return plan;
}

using Combination = std::pair<std::string, std::string>;
std::vector<Combination> cancelling_transport_combinations() {
  std::vector<Combination> all;
  for (const std::string& strategy : amp::comm::strategy_names())
    for (const std::string transport : {"isend", "persistent", "datatype", "rma"})
      if (amp::comm::combination_refusal(strategy, transport, amp::comm::MpiBuffers::where_mpi_reaches()).empty())
        all.emplace_back(strategy, transport);
  return all;
}

class DestroyedMidExchange : public ::testing::TestWithParam<Combination> {};

TEST_P(DestroyedMidExchange, CancelsItsRequestsAndLeavesMpiClean) {
  const Ranks r;
  if (r.size == 1) GTEST_SKIP() << "one rank: no peer, nothing in flight";
  const auto& [strategy_name, transport] = GetParam();
  {
    auto storage = std::make_unique<std::vector<MirroredValues>>(MirroredValues::several(kVars, r.storage(), 1.0));
    auto strategy = amp::comm::make_strategy(strategy_name, transport, one_piece_to_every_peer(r),
                                             amp::comm::ExchangeContext(MPI_COMM_WORLD));
    for (int v = 0; v < kVars; ++v) strategy->computed(v, (*storage)[v].device);
    strategy.reset();  // mid-exchange: no need_ghosts
    storage.reset();   // the proxy's storage goes too
  }
  MPI_Barrier(MPI_COMM_WORLD);

  // A whole exchange afterwards moves every value, on a fresh duplicate of the same communicator.
  std::vector<MirroredValues> storage = MirroredValues::several(kVars, r.storage(), -1.0);
  for (int v = 0; v < kVars; ++v)
    for (std::int64_t e = 0; e < kElements; ++e) storage[v][e] = 1000.0 * r.rank + v + 1e-6 * e;
  auto strategy = amp::comm::make_strategy(strategy_name, transport, one_piece_to_every_peer(r),
                                           amp::comm::ExchangeContext(MPI_COMM_WORLD));
  for (int v = 0; v < kVars; ++v) strategy->computed(v, storage[v].written());
  for (int v = 0; v < kVars; ++v) strategy->need_ghosts(v);
  for (int v = 0; v < kVars; ++v) storage[v].read();
  int wrong = 0;
  for (int q = 0; q < r.size; ++q)
    for (int v = 0; v < kVars && q != r.rank; ++v)
      for (std::int64_t e = 0; e < kElements; ++e) wrong += storage[v][r.ghost(q) + e] != 1000.0 * q + v + 1e-6 * e;
  EXPECT_EQ(wrong, 0);
}

INSTANTIATE_TEST_SUITE_P(CancellingTransports, DestroyedMidExchange,
                         ::testing::ValuesIn(cancelling_transport_combinations()),
                         [](const auto& info) { return info.param.first + "_" + info.param.second; });

}  // namespace
