// SPDX-License-Identifier: BSD-3-Clause
// amp-trace otf2: converts a DUMPI trace to a new OTF2 archive and says what it wrote, with a
// note for each thing the trace could not tell exactly (unmatched requests, unknown senders).
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include <amp/trace/otf2/otf2_export.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_otf2(const std::string& input, const std::string& output_directory) {
  const auto started = std::chrono::steady_clock::now();
  otf2::ExportResult r = otf2::export_otf2(input, output_directory);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const otf2::MappingSummary& s = r.summary;
  std::cout << fmt::format(
      "wrote {}: {} locations ({} traced), {} records -> {} events, {} messages sent ({} bytes), "
      "{} received ({} bytes), {} collectives, {} communicators, {:.3f} s\n",
      r.anchor_path, r.world_size, r.traced_ranks, s.records, r.events, s.messages_sent, s.bytes_sent,
      s.messages_received, s.bytes_received, s.collectives, r.communicators, seconds);
  if (s.unmatched_completions != 0)
    std::cout << fmt::format("note: {} completed requests were started by no recorded call (not exported)\n",
                             s.unmatched_completions);
  if (s.never_completed != 0)
    std::cout << fmt::format("note: {} nonblocking operations were never completed in the trace\n", s.never_completed);
  if (s.receives_without_source != 0)
    std::cout << fmt::format(
        "note: {} receives name no sender (MPI_PROC_NULL, or MPI_ANY_SOURCE without a status); "
        "not exported as messages\n",
        s.receives_without_source);
  if (s.unmatched_function_exits != 0)
    std::cout << fmt::format("note: {} Function_exit records match no open Function_enter (ignored)\n",
                             s.unmatched_function_exits);
  return 0;
}

}  // namespace amp::trace::cli
