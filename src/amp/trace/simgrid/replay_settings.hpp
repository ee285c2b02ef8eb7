// SPDX-License-Identifier: BSD-3-Clause
// The smpirun settings every replay of an AMP export needs, whatever the network (the network's own, SMPI's
// bandwidth and latency factors and per-message overheads, come from `./amp simulate`'s network file). One
// list: `amp-trace simgrid` prints it in its replay line and writes it into export.json ("smpirun_cfg"),
// where `./amp simulate` takes it from. Why each: docs/TRACE_TOOLS.md, "The replay's settings".
#pragma once

#include <array>
#include <string_view>

namespace amp::trace::simgrid {

inline constexpr std::array<std::string_view, 5> kReplaySettings = {
    // Recursive doubling, MPICH's choice for small allgathers. SimGrid 3.32's default did not finish a
    // 1024-rank svaf trace (its Comm_split allgather) in 5 minutes, and crashed at 256 ranks, 16 per node.
    "--cfg=smpi/allgather:rdb",
    // Bruck's barrier, as SST-macro's and Open MPI's (SMPI's default is linear: every rank to rank 0 and back).
    "--cfg=smpi/barrier:ompi_bruck",
    // MPI_Finalize synchronizes, as MPI libraries (and SST-macro) do.
    "--cfg=smpi/finalization-barrier:yes",
    // No model of TCP's acknowledgements (5 % of each flow's bytes back): an HPC network sends none.
    "--cfg=network/crosstraffic:0",
    // The max-min solver's tolerance: 3.32's default 1e-5 stopped some replays in its own assertion.
    "--cfg=maxmin/precision:0.0001",
};

// The least computation SimGrid does not end at once: maxmin/precision above times smpirun's surf/precision
// (1e-9). Measured with 3.32: 1e-13 flops took their time, 5e-14 none.
inline constexpr double kSmallestReplayedFlops = 1e-13;

// The host speeds the export writes compute for. At the slowest, one nanosecond of compute is twice
// kSmallestReplayedFlops (a slower host would replay every short computation as none); at the fastest, a
// DUMPI trace's longest run (65536 s) is still a finite number of flops.
inline constexpr double kSlowestHostSpeed = 2e-4;
inline constexpr double kFastestHostSpeed = 1e300;

}  // namespace amp::trace::simgrid
