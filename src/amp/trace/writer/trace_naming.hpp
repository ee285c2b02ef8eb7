// SPDX-License-Identifier: BSD-3-Clause
// Chooses the run's file prefix on rank 0 (dumpi-<YYYY.MM.DD.hh.mm.ss> of its start, or
// AMP_TRACE_PREFIX), never reusing an existing trace's name, and shares it with every rank.
#pragma once

#include <cstdint>
#include <string>

namespace amp::trace {

struct TraceNames {
  std::string directory;
  std::string prefix;  // e.g. dumpi-2026.11.22.02.35.24
  std::uint64_t start_time_epoch = 0;
  std::string notice;   // non-empty when rank 0 had to pick a fresh name
  std::string refusal;  // rank 0: non-empty when the folder already holds a traced run (a .meta)

  std::string bin_path(int rank) const;
  std::string meta_path() const;
};

// Collective over MPI_COMM_WORLD (uses PMPI only).
TraceNames agree_on_trace_names(const std::string& directory, const std::string& requested_prefix, int rank);

// Why a file could not be created in `directory` (open's `error`): the system's reason, and when
// the directory is a symbolic link to nothing, that link and where it points.
std::string creation_problem(const std::string& directory, int error);

// Rank 0: writes <prefix>.meta (never overwriting), with `extra_lines` ("key=value\n" each) at its
// end. Returns 0 or an errno value.
int write_meta_file(const TraceNames& names, int numprocs, const std::string& hostname, const std::string& username,
                    const std::string& extra_lines = "");

}  // namespace amp::trace
