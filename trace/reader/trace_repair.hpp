// Rebuilds the footer and index of a .bin whose writer died without writing them (SIGKILL, node
// loss): keeps every complete record, drops only an incomplete last one, never loses the original.
#pragma once

#include <cstdint>
#include <string>

namespace amp::trace {

struct RepairResult {
  std::string output_path;
  std::string backup_path;        // where the original now lives (in-place repair), else empty
  std::size_t records_kept = 0;
  std::uint64_t bytes_dropped = 0;  // incomplete record / partial tail bytes not carried over
  bool sizes_from_builtin_table = true;
};

// output_path empty: repair in place after renaming the original to <path>.damaged (refuses if that
// exists). Otherwise writes a new file (refuses to overwrite). Throws TraceFormatError when the
// input is not a DUMPI stream or already reads fine.
RepairResult repair_trace_file(const std::string& path, const std::string& output_path);

}  // namespace amp::trace
