// SPDX-License-Identifier: BSD-3-Clause
// Finds the per-rank .bin files of one traced run from what the user typed: a .meta file, a
// prefix (path without -NNNN.bin), a single .bin, or a directory holding exactly one run.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace amp::trace {

struct TraceSet {
  std::string description;                  // what was opened, for messages
  std::string meta_path;                    // empty when opened from a single .bin
  std::map<std::string, std::string> meta;  // key=value lines of the .meta
  std::vector<int> ranks;                   // MPI_COMM_WORLD rank of each file
  std::vector<std::string> bin_paths;
};

// Throws TraceFormatError with a one-line message when nothing (or something ambiguous) matches.
TraceSet locate_trace(const std::string& input);

// Reads key=value lines; throws TraceFormatError when the file cannot be read.
std::map<std::string, std::string> read_meta_file(const std::string& path);

// The calls the .meta counts as made but not recorded (DUMPI has no record for them: partitioned,
// neighbourhood, ...), as "MPI_X x3, MPI_Y x1"; empty when there are none. No replay of the trace is whole.
std::string unrecorded_calls(const TraceSet& set);

// The rank encoded in a "<prefix>-NNNN.bin" name, or -1.
int rank_from_bin_name(const std::string& path);

}  // namespace amp::trace
