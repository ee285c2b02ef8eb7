// SPDX-License-Identifier: BSD-3-Clause
// Example 01: an application of its own exchanges a halo through AMP's comm layer. Each rank owns a block
// of a 1-D bar (three variables per cell, two ghost cells at each end), says once what goes to and comes
// from each neighbour (an ExchangePlan), takes a strategy by the name a user typed, exchanges once and
// checks that every ghost cell holds exactly its owner's value.
#include <amp/comm.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kOwned = 8;      // cells each rank owns
constexpr int kGhosts = 2;     // ghost cells at each end of a block
constexpr int kVariables = 3;  // values per cell (density, energy, pressure, say)
constexpr double kUnset = -1;  // a ghost cell nothing was received into

// Cell `global`'s value of variable v: different for every cell and variable, and exact in a double.
double value(int global, int v) { return 1000.0 * v + global; }

// One block's storage, [kGhosts left ghosts][kOwned own cells][kGhosts right ghosts]: what AMP sends to
// and receives from the neighbours on each side, as pieces of that storage (the same for every variable).
amp::comm::ExchangePlan halo_plan(int rank, int ranks) {
  using amp::comm::Piece;
  amp::comm::ExchangePlan plan;
  plan.num_vars = kVariables;
  if (rank > 0)  // my first own cells go left; the left neighbour's last ones fill my left ghosts
    plan.links.push_back({rank - 1, 0, {Piece::strided(kGhosts, kGhosts)}, {Piece::strided(0, kGhosts)}});
  if (rank + 1 < ranks)  // my last own cells go right; the right neighbour's first ones fill my right ghosts
    plan.links.push_back({rank + 1, 0, {Piece::strided(kOwned, kGhosts)}, {Piece::strided(kOwned + kGhosts, kGhosts)}});
  return plan;
}

// What cell i of rank `rank`'s storage must hold after the exchange: an own or received value, or kUnset
// where the bar ends.
double expected(int rank, int ranks, int i, int v) {
  const int global = rank * kOwned + i - kGhosts;
  return global < 0 || global >= ranks * kOwned ? kUnset : value(global, v);
}

// Exchanges once with the named strategy and transport; returns the number of wrong cells on all ranks.
int exchange_and_check(int rank, int ranks, const std::string& strategy_name, const std::string& transport_name) {
  auto strategy = amp::comm::make_strategy(strategy_name, transport_name, halo_plan(rank, ranks),
                                           amp::comm::ExchangeContext(MPI_COMM_WORLD));
  std::vector<Kokkos::View<double*>> fields;
  for (int v = 0; v < kVariables; ++v) {
    Kokkos::View<double*> field("field", kOwned + 2 * kGhosts);
    auto host = Kokkos::create_mirror_view(field);
    for (int i = 0; i < kOwned + 2 * kGhosts; ++i) {
      const bool own = i >= kGhosts && i < kGhosts + kOwned;
      host(i) = own ? expected(rank, ranks, i, v) : kUnset;
    }
    Kokkos::deep_copy(field, host);
    fields.push_back(field);
  }
  for (int v = 0; v < kVariables; ++v) strategy->computed(v, fields[v]);  // its boundary values may go
  for (int v = 0; v < kVariables; ++v) strategy->need_ghosts(v);          // its ghosts are in when this returns
  strategy->finish();

  long long counts[3] = {0, static_cast<long long>(strategy->traffic().messages),
                         static_cast<long long>(strategy->traffic().bytes)};  // wrong cells, messages, bytes
  for (int v = 0; v < kVariables; ++v) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[v]);
    for (int i = 0; i < kOwned + 2 * kGhosts; ++i) counts[0] += host(i) != expected(rank, ranks, i, v);
  }
  MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s over %s on %d ranks: %lld messages, %lld bytes; %s\n", strategy_name.c_str(),
                transport_name.c_str(), ranks, counts[1], counts[2],
                counts[0] == 0 ? "every ghost cell holds its owner's value" : "some ghost cells are WRONG");
  return static_cast<int>(counts[0]);
}

}  // namespace

// one_exchange [STRATEGY [TRANSPORT]]: the strategy (default bspma) and transport (default isend) by name.
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const std::string strategy = argc > 1 ? argv[1] : "bspma";
    const std::string transport = argc > 2 ? argv[2] : "isend";
    try {
      status = exchange_and_check(rank, ranks, strategy, transport) == 0 ? 0 : 1;
    } catch (const std::invalid_argument& e) {  // an unknown name, or a pair that does not fit: every rank
      if (rank == 0) std::fprintf(stderr, "one_exchange: error: %s\n", e.what());
      status = 2;
    }
  }
  Kokkos::finalize();
  MPI_Finalize();
  return status;
}
