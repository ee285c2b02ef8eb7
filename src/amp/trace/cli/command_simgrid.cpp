// SPDX-License-Identifier: BSD-3-Clause
// amp-trace simgrid: exports a DUMPI trace to SimGrid time-independent action files and says what
// it wrote, with the line that replays it: a shell command to run as printed, once PLATFORM.xml and
// HOSTS name a platform and a hostfile, carrying every setting the replay needs (replay_settings.hpp).
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string_view>

#include <amp/trace/simgrid/replay_settings.hpp>
#include <amp/trace/simgrid/ti_export.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

namespace {

// `text` as one shell word: as it is where it holds only characters no shell treats specially, else
// in single quotes (a quote inside closed, escaped and reopened).
std::string shell_word(const std::string& text) {
  constexpr std::string_view plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-:=@%,";
  if (!text.empty() && text.find_first_not_of(plain) == std::string::npos) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The replay of the export in `directory`, run from anywhere.
std::string replay_command(const std::string& directory, std::size_t ranks) {
  std::string command = fmt::format(
      "cd {} && smpirun -np {} -platform PLATFORM.xml -hostfile HOSTS -replay ranks.txt "
      "/usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain",
      shell_word(std::filesystem::absolute(directory).lexically_normal().string()), ranks);
  for (std::string_view setting : simgrid::kReplaySettings) command += fmt::format(" {}", setting);
  return command;
}

}  // namespace

int run_simgrid(const std::string& input, const std::string& output_directory, double host_speed_flops) {
  const auto started = std::chrono::steady_clock::now();
  simgrid::TiExportOptions options;
  options.host_speed_flops = host_speed_flops;
  const simgrid::TiExportResult r = simgrid::export_time_independent(input, output_directory, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << fmt::format(
      "wrote {}: {} rank files, {} actions, {} messages ({} bytes), {} collectives, {} channels "
      "renumbered, compute at {:g} flop/s, {:.3f} s\n",
      r.directory, r.ranks.size(), r.actions, r.messages, r.bytes, r.collectives, r.retagged_channels, host_speed_flops,
      seconds);
  std::cout << fmt::format(
      "replay it with this line, PLATFORM.xml naming a platform whose hosts run at {}f and HOSTS "
      "a hostfile (rank r on its line r):\n  {}\n",
      host_speed_flops, replay_command(r.directory, r.ranks.size()));
  return 0;
}

}  // namespace amp::trace::cli
