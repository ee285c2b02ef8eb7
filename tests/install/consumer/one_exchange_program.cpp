// SPDX-License-Identifier: BSD-3-Clause
// Outside AMP: two ranks swap four values through AMP::comm (the svaf strategy over isend), as an
// application would: its own plan (what to send, where ghosts go), its own storage, one exchange.
#include <amp/comm.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int wrong = 0, rank = 0;
  {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    amp::comm::ExchangePlan plan;  // values 0..3 are mine; 4..7 are the other rank's 0..3
    plan.links.push_back({1 - rank, 0, {amp::comm::Piece::strided(0, 4)}, {amp::comm::Piece::strided(4, 4)}});
    auto strategy = amp::comm::make_strategy("svaf", "isend", plan, amp::comm::ExchangeContext(MPI_COMM_WORLD));
    Kokkos::View<double*> values("values", 8);
    auto host = Kokkos::create_mirror_view(values);
    for (int i = 0; i < 4; ++i) host(i) = 10.0 * rank + i;
    Kokkos::deep_copy(values, host);
    strategy->computed(0, values);
    strategy->need_ghosts(0);
    strategy->finish();
    Kokkos::deep_copy(host, values);
    for (int i = 0; i < 4; ++i) wrong += host(4 + i) != 10.0 * (1 - rank) + i;
    std::printf("rank %d received %g %g %g %g\n", rank, host(4), host(5), host(6), host(7));
  }
  Kokkos::finalize();
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
