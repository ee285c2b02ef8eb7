// SPDX-License-Identifier: BSD-3-Clause
// amp-trace info: per rank the header (version, host, start time), record and byte counts, and
// the footer's call counts, then the call counts summed over ranks, and the .meta's counts of calls
// with no DUMPI record.
#include <fmt/format.h>

#include <iostream>
#include <map>

#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_info(const std::string& input) {
  TraceSet set = locate_trace(input);
  std::cout << fmt::format("trace: {}\n", set.description);
  if (!set.meta.empty())
    std::cout << fmt::format("prefix: {}  ranks: {}  host: {}  start time: {}\n", set.meta["fileprefix"],
                             set.meta["numprocs"], set.meta["hostname"], set.meta["startime"]);
  std::map<unsigned, std::uint64_t> total_calls, total_ignored;
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
    TraceFile file = TraceFile::open(set.bin_paths[i]);
    const auto& h = file.header();
    std::size_t records = 0;
    auto cursor = file.records();
    while (cursor.next()) ++records;
    std::cout << fmt::format(
        "rank {}: {}  DUMPI {}.{}.{}  host {}  user {}  start {}  {} bytes  {} records  {} datatypes\n", set.ranks[i],
        set.bin_paths[i], h.version[0], h.version[1], h.version[2], h.hostname, h.username, h.start_time, file.size(),
        records, file.datatype_sizes().size());
    for (unsigned id = 0; id < kAllFunctions; ++id) {
      total_calls[id] += file.footer().call_counts[id];
      total_ignored[id] += file.footer().ignored_counts[id];
    }
  }
  std::cout << "calls (all ranks, from the footers):\n";
  std::cout << fmt::format("  {:<24} {:>12} {:>12}\n", "function", "recorded", "ignored");
  for (unsigned id = 0; id < kAllFunctions; ++id) {
    if (total_calls[id] == 0 && total_ignored[id] == 0) continue;
    std::cout << fmt::format("  {:<24} {:>12} {:>12}\n", function_name(id), total_calls[id], total_ignored[id]);
  }
  // libamp_dumpi's counts of calls DUMPI has no record for (TRACE_FORMAT.md).
  const std::string unrecorded_prefix = "amp_unrecorded_";
  if (set.meta.count("amp_unrecorded_total") != 0 && set.meta["amp_unrecorded_total"] != "0") {
    std::cout << fmt::format("calls with no DUMPI record, not in the trace (all ranks, from the .meta): {}\n",
                             set.meta["amp_unrecorded_total"]);
    for (const auto& [key, value] : set.meta)
      if (key.rfind(unrecorded_prefix, 0) == 0 && key != "amp_unrecorded_total")
        std::cout << fmt::format("  {:<32} {:>12}\n", key.substr(unrecorded_prefix.size()), value);
  }
  return 0;
}

}  // namespace amp::trace::cli
