// SPDX-License-Identifier: BSD-3-Clause
// SimGrid time-independent (TI) export of a DUMPI trace: one action file per rank (rank-<r>.txt),
// ranks.txt (the list `smpirun -replay` takes) and export.json (what was written, the compute speed,
// the recorded wall time). Read from the one RecordStream; anything with no TI form is refused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace amp::trace::simgrid {

struct TiExportOptions {
  // Compute between calls is written as flops at this speed, to the nanosecond and exactly (fractional
  // flops on a slow host); the platform must declare the same speed. kSlowestHostSpeed to
  // kFastestHostSpeed (replay_settings.hpp): a slower host's nanosecond is less than SimGrid replays.
  double host_speed_flops = 1e9;
};

struct TiRankSummary {
  std::uint64_t actions = 0;
  std::uint64_t messages_sent = 0;  // isend + send actions (Sendrecv's send side and Start included)
  std::uint64_t bytes_sent = 0;
  std::uint64_t receives = 0;
  double compute_seconds = 0;   // recorded time between calls, written as compute
  double recorded_seconds = 0;  // wall time of the rank's traced region(s): each from MPI_Init's return (else
                                // its first record) or a resume to the start of MPI_Finalize or the end of
                                // the region's last action; a region with no action counts nothing
};

struct TiExportResult {
  std::string directory;
  int world_size = 0;
  std::vector<int> ranks;  // world rank of each summary
  std::vector<TiRankSummary> per_rank;
  std::uint64_t actions = 0, messages = 0, bytes = 0, collectives = 0;
  std::uint64_t retagged_channels = 0;  // channels (pairs of ranks, communicator, tag) renumbered
  double recorded_seconds = 0;          // traced time, region by region from the last rank to enter it to
                                        // the last to leave it: what a replay predicts
  bool synthesized = false;             // the trace came from --synthesize (its times are a model)
};

// Writes the export into output_directory, which must not exist; on any failure, and on SIGINT,
// SIGTERM or SIGHUP, nothing is left there. Throws std::runtime_error (TraceFormatError for
// unreadable input) with a one-line message naming the rank, record and call that has no TI form,
// and OutputWriteError (the system's reason) when a file cannot be written.
TiExportResult export_time_independent(const std::string& input, const std::string& output_directory,
                                       const TiExportOptions& options = {});

}  // namespace amp::trace::simgrid
