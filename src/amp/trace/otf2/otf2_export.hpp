// SPDX-License-Identifier: BSD-3-Clause
// amp-trace otf2: a whole DUMPI trace (any input the other subcommands accept) to a new OTF2
// archive directory, written aside and moved into place only when complete; never overwrites.
#pragma once

#include <string>

#include <amp/trace/otf2/event_mapping.hpp>

namespace amp::trace::otf2 {

struct ExportResult {
  std::string anchor_path;  // <output>/traces.otf2, what Vampir and otf2-print open
  int world_size = 0;
  int traced_ranks = 0;
  std::uint64_t events = 0;
  std::uint64_t communicators = 0;
  MappingSummary summary;
};

// Throws TraceFormatError for unreadable input, std::runtime_error when the output exists,
// OutputWriteError (the system's reason) when the disk refuses it; in each case, and on SIGINT,
// SIGTERM or SIGHUP, nothing is left at output_directory.
ExportResult export_otf2(const std::string& input, const std::string& output_directory);

}  // namespace amp::trace::otf2
