// SPDX-License-Identifier: BSD-3-Clause
// Refuses a run whose fields cannot fit before anything large is allocated: one line "needs N GiB
// per rank, this node has M GiB", thrown as InputError on every rank (exit 2, never an allocation trace).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace amp {

// Memory this node can still give: MemAvailable from /proc/meminfo, or the room left under this
// process's cgroup limit when that is smaller. Bytes; 0 when neither can be read.
std::uint64_t node_available_bytes();

// Collective on `comm`: checks `bytes_per_rank` times the ranks sharing each node against
// that node's available memory; every rank throws the same InputError when some node is short.
// `one_rank_at_a_time` (a synthesis: the node's ranks are virtual, one in memory at a time): the
// same calls, but one rank's bytes against the whole node.
void check_node_memory(MPI_Comm comm, double bytes_per_rank, bool one_rank_at_a_time = false);

}  // namespace amp
