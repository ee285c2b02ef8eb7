// SPDX-License-Identifier: BSD-3-Clause
// Structural checks of a trace beyond "it parses": the stream ends where the index says, footer
// counts match the records, times run forward, datatype ids have sizes. Reports the first problem.
#pragma once

#include <optional>
#include <string>

#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace {

struct ValidationSummary {
  std::size_t files = 0;
  std::size_t records = 0;
};

// The first problem of one file as a one-line message, or nothing when the file is sound.
std::optional<std::string> first_problem(const TraceFile& file);

// Checks every file of the set; throws TraceFormatError with the first problem found, and for a
// sound file that ends without MPI_Finalize (the run was cut short).
ValidationSummary validate_trace(const TraceSet& set);

}  // namespace amp::trace
