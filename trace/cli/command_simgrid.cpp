// amp-trace simgrid: exports a DUMPI trace to SimGrid time-independent action files and says what
// it wrote, with the line that replays it.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include <amp/trace/simgrid/ti_export.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_simgrid(const std::string& input, const std::string& output_directory, double host_speed_flops) {
  const auto started = std::chrono::steady_clock::now();
  simgrid::TiExportOptions options;
  options.host_speed_flops = host_speed_flops;
  const simgrid::TiExportResult r = simgrid::export_time_independent(input, output_directory, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << fmt::format("wrote {}: {} rank files, {} actions, {} messages ({} bytes), {} collectives, {} channels "
                           "renumbered, compute at {:g} flop/s, {:.3f} s\n",
                           r.directory, r.ranks.size(), r.actions, r.messages, r.bytes, r.collectives,
                           r.retagged_channels, host_speed_flops, seconds);
  std::cout << fmt::format("replay: smpirun -np {} -platform PLATFORM.xml -hostfile HOSTS -replay {}/ranks.txt "
                           "/usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain  (run from {}; hosts at speed {:g}f)\n",
                           r.ranks.size(), r.directory, r.directory, host_speed_flops);
  return 0;
}

}  // namespace amp::trace::cli
