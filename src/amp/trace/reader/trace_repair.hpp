// SPDX-License-Identifier: BSD-3-Clause
// Rebuilds the footer and index of a .bin whose writer died without writing them (SIGKILL, node
// loss): keeps every complete record, drops only an incomplete last one, never loses the original.
#pragma once

#include <cstdint>
#include <string>

namespace amp::trace {

struct RepairResult {
  std::string output_path;
  std::string backup_path;  // where the original now lives (in-place repair), else empty
  std::size_t records_kept = 0;
  std::uint64_t bytes_dropped = 0;  // incomplete record / partial tail bytes not carried over
  bool sizes_from_builtin_table = true;
};

// output_path empty: repair in place; the repaired file is written to <path>.partial, fsync'ed and
// validated, then the original is kept as <path>.damaged (refused if that exists) and the repaired
// file renamed over <path>. Otherwise writes a new file the same way (refuses an existing name).
// On any failure nothing is changed and nothing is left. Throws TraceFormatError when the input
// is not a DUMPI stream or already reads fine, OutputWriteError when the disk refuses the bytes.
RepairResult repair_trace_file(const std::string& path, const std::string& output_path);

}  // namespace amp::trace
