// SPDX-License-Identifier: BSD-3-Clause
// A copy of a DUMPI trace for SST-macro's replay, in which the stretches a proxy did not trace take no
// time. SST-macro replays the DUMPI files themselves and turns every gap between two MPI calls into
// compute (their wall clocks), so a recorded run's paused set-up (between MPI_Pcontrol(0) and (1):
// allocation, Kokkos start-up, first touch) would become milliseconds of compute that the SimGrid export
// leaves out (ti_export.cpp). The copy moves every record after a pause earlier by the paused time, so the
// gaps inside a pause are zero and the calls there (communicator creations) still happen; everything else
// is byte for byte the original.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace amp::trace::sstmac {

struct UnpausedCopyResult {
  std::string directory;
  std::vector<int> ranks;               // world rank of each file
  std::vector<double> removed_seconds;  // paused wall time taken out, per file
  std::uint64_t records = 0;
  std::uint64_t moved_records = 0;  // records whose wall times changed
};

// Writes the copy (the .meta and every .bin under their own names) into output_directory, which must not
// exist; on any failure, and on SIGINT, SIGTERM or SIGHUP, nothing is left (StagedDirectory).
UnpausedCopyResult write_unpaused_copy(const std::string& input, const std::string& output_directory);

}  // namespace amp::trace::sstmac
