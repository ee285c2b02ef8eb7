// SPDX-License-Identifier: BSD-3-Clause
// A copy of a DUMPI trace that CODES 1.5 (model-net-mpi-replay, dumpi-trace-workload) replays as the run
// was. Stock CODES aborts on MPI_Comm_dup and MPI_Comm_create records, reads every rank as a rank of
// MPI_COMM_WORLD, sizes datatypes by its own table (no derived type), matches by (source, tag) alone,
// skips persistent requests, MPI_Test*, MPI_Barrier and most collectives, treats MPI_Waitany and
// MPI_Waitsome as no wait, and replays MPI_Allreduce and MPI_Bcast in no time. The copy holds only what
// it replays faithfully: every message as world ranks and MPI_BYTEs, its own tag per channel, its own
// request per operation, a wait where the run learnt of a completion, collectives as point-to-point rounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace amp::trace::codes {

struct ReplayCopyResult {
  std::string directory;
  std::string workload_prefix;  // what CODES' --workload_file takes: the files' path up to the rank
  int world_size = 0;
  std::uint64_t records_read = 0;                               // records of the original
  std::uint64_t records = 0;                                    // records of the copy
  std::uint64_t messages = 0, bytes = 0;                        // point-to-point sends and their payload
  std::uint64_t collectives = 0;                                // collective calls (creations included) lowered
  std::uint64_t collective_messages = 0, collective_bytes = 0;  // the messages they became
  std::vector<double> paused_seconds;  // per rank (world rank order): wall time from MPI_Pcontrol(0) to the
                                       // end of the MPI_Pcontrol(1) after it, which the copy's clock leaves out
};

// Writes the copy (the .meta and one .bin per rank, named <fileprefix>-NNNN.bin) into output_directory,
// which must not exist; on any failure, and on SIGINT, SIGTERM or SIGHUP, nothing is left
// (StagedDirectory). A call the copy cannot express is refused in one line naming rank, record and call.
ReplayCopyResult write_replay_copy(const std::string& input, const std::string& output_directory);

}  // namespace amp::trace::codes
