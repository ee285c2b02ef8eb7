// SPDX-License-Identifier: BSD-3-Clause
// amp-trace dump: every record of every rank's file, one line each (or dumpi2ascii's layout),
// preceded by a "# rank N: FILE" line when the trace has several ranks.
#include <iostream>

#include <amp/trace/reader/ascii_dump.hpp>
#include <amp/trace/reader/trace_set.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_dump(const std::string& input, bool dumpi2ascii_layout) {
  TraceSet set = locate_trace(input);
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
    TraceFile file = TraceFile::open(set.bin_paths[i]);
    if (set.bin_paths.size() > 1) std::cout << "# rank " << set.ranks[i] << ": " << set.bin_paths[i] << '\n';
    dump_records(file, dumpi2ascii_layout ? DumpLayout::kDumpi2ascii : DumpLayout::kOneLine, std::cout);
  }
  return 0;
}

}  // namespace amp::trace::cli
