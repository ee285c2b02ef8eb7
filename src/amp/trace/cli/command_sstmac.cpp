// SPDX-License-Identifier: BSD-3-Clause
// amp-trace sstmac: writes the copy of a trace that SST-macro replays (its paused set-up taking no time)
// and says what it wrote.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include <amp/trace/sstmac/unpaused_copy.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_sstmac(const std::string& input, const std::string& output_directory) {
  const sstmac::UnpausedCopyResult r = sstmac::write_unpaused_copy(input, output_directory);
  const double most =
      r.removed_seconds.empty() ? 0.0 : *std::max_element(r.removed_seconds.begin(), r.removed_seconds.end());
  std::cout << fmt::format(
      "wrote {}: {} rank files, {} records ({} moved earlier), paused time taken out: up to "
      "{:.9f} s per rank\n",
      r.directory, r.ranks.size(), r.records, r.moved_records, most);
  return 0;
}

}  // namespace amp::trace::cli
