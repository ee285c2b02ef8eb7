// SPDX-License-Identifier: BSD-3-Clause
// How busy the node was while a run ran (noise a study must see): the 1-minute load average at start
// and end, the node's busy CPU seconds not spent by this run's ranks, wall seconds and online cores.
// Written into every proxy's results JSON as "machine_load".
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>

namespace amp {

// What is read when the run starts (before MPI_Init).
struct MachineLoadStart {
  double load_average = 0;       // /proc/loadavg, 1 minute
  double node_busy_seconds = 0;  // /proc/stat "cpu" line: all but idle and iowait
  double own_cpu_seconds = 0;    // getrusage(RUSAGE_SELF) user + system
  double wall_seconds = 0;       // steady clock
};
MachineLoadStart machine_load_start();

// Collective on `comm` (sums the ranks' CPU seconds on rank 0). The object of rank 0:
// {"load_average_start", "load_average_end", "other_cpu_seconds", "wall_seconds", "cores"}.
// other_cpu_seconds is the node's busy CPU time over the run minus the CPU time of all ranks, at
// least 0 (the node's counters tick in 1/100 s).
nlohmann::json machine_load_json(MPI_Comm comm, const MachineLoadStart& start);

}  // namespace amp
