// SPDX-License-Identifier: BSD-3-Clause
// Collectives as rounds of point-to-point messages, for a replayer that has none of its own: CODES 1.5's
// DUMPI replay skips MPI_Barrier and the rest and turns MPI_Allreduce and MPI_Bcast into events that take
// no simulated time and send nothing. One member's part of a collective on n members, in comm ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace amp::trace::codes {

struct Transfer {
  int peer = 0;  // comm rank
  std::int64_t bytes = 0;
};

// Messages started together and waited for together before the next round.
struct Round {
  std::vector<Transfer> sends, receives;
};

// What the call moves: the per-member block (send side and, where it differs, receive side) and the root.
struct CollectiveShape {
  std::uint16_t function = 0;   // MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Gather, MPI_Scatter,
                                // MPI_Allgather or MPI_Alltoall (dumpi_format.hpp ids)
  int size = 0;                 // members
  int me = 0;                   // this member's comm rank
  int root = 0;                 // comm rank of the root (rooted calls)
  std::int64_t bytes = 0;       // the block this member sends (Bcast, Reduce, Allreduce: the whole buffer)
  std::int64_t recv_bytes = 0;  // the block this member receives from each peer (Gather, Scatter, Allgather,
                                // Alltoall)
};

// This member's rounds: Barrier by dissemination (0-byte messages to rank + 2^k), Bcast down a binomial
// tree from the root and Reduce up one (MPICH's short-message algorithms), Allreduce as a Reduce to comm
// rank 0 and a Bcast from it, Gather and Scatter straight between the root and each member, Allgather by
// Bruck's algorithm (ceil(log2 n) rounds, to rank - 2^k), Alltoall by pairwise exchange (rank + i, rank - i).
// Nothing for another function.
std::optional<std::vector<Round>> collective_rounds(const CollectiveShape& shape);

}  // namespace amp::trace::codes
