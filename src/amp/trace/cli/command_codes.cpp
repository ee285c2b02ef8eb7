// SPDX-License-Identifier: BSD-3-Clause
// amp-trace codes: writes the copy of a trace that CODES' model-net-mpi-replay replays and says what it
// wrote, with the two options that name it to CODES.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include <amp/trace/codes/replay_copy.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_codes(const std::string& input, const std::string& output_directory) {
  const codes::ReplayCopyResult r = codes::write_replay_copy(input, output_directory);
  const double paused =
      r.paused_seconds.empty() ? 0.0 : *std::max_element(r.paused_seconds.begin(), r.paused_seconds.end());
  std::cout << fmt::format(
      "wrote {}: {} rank files, {} records (from {}): {} messages of {} bytes, {} collectives "
      "as {} messages of {} bytes; paused time taken out: up to {:.9f} s per rank; replay with "
      "--num_net_traces={} --workload_file={}\n",
      r.directory, r.world_size, r.records, r.records_read, r.messages, r.bytes, r.collectives, r.collective_messages,
      r.collective_bytes, paused, r.world_size, r.workload_prefix);
  return 0;
}

}  // namespace amp::trace::cli
