// amp-trace: inspect, summarise, check and repair DUMPI traces (from AMP's libamp_dumpi or
// sst-dumpi). Subcommands: info, stats, dump, validate, repair, check, otf2, simgrid.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"amp-trace: read DUMPI traces (a .meta file, a prefix, a single .bin, or a directory)"};
  app.require_subcommand(1);
  std::string input, matrix_csv, output;
  bool json = false, dumpi2ascii = false, in_flight_only = false;

  auto* info = app.add_subcommand("info", "header, ranks and call counts");
  info->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  auto* stats = app.add_subcommand("stats", "messages and bytes per rank and call, size histogram, matrix");
  stats->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  stats->add_flag("--json", json, "print machine-readable JSON instead of tables");
  stats->add_option("--matrix-csv", matrix_csv, "write the rank-to-rank bytes matrix to this CSV file");
  auto* dump = app.add_subcommand("dump", "one line per record");
  dump->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  dump->add_flag("--dumpi2ascii", dumpi2ascii, "print in sst-dumpi's dumpi2ascii layout (several lines per record)");
  auto* validate = app.add_subcommand("validate", "structural checks; the first problem is reported");
  validate->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  auto* check = app.add_subcommand("check", "replay all ranks' point-to-point traffic; report what breaks replayers");
  check->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  check->add_flag("--json", json, "print machine-readable JSON instead of one line per finding");
  check->add_flag("--in-flight-only", in_flight_only,
                  "report a channel's size change only while its earlier message is still in flight");
  auto* repair = app.add_subcommand("repair", "rebuild footer and index of a .bin whose writer was killed");
  repair->add_option("file", input, "the damaged <prefix>-NNNN.bin")->required();
  repair->add_option("-o,--output", output,
                     "write the repaired trace here (default: repair in place, keeping the original as FILE.damaged)");
  auto* otf2 = app.add_subcommand("otf2", "convert to a new OTF2 archive directory (Vampir, Score-P tools, SST/Ember)");
  otf2->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  otf2->add_option("output", output, "the archive directory to create (must not exist)")->required();

  auto* simgrid = app.add_subcommand("simgrid", "export to SimGrid time-independent traces (smpirun -replay)");
  simgrid->add_option("trace", input, "trace (.meta, prefix, .bin or directory)")->required();
  simgrid->add_option("output", output, "the directory to create (must not exist): rank-<r>.txt, ranks.txt, export.json")
      ->required();
  double host_speed = 1e9;
  simgrid->add_option("--host-speed", host_speed, "flop/s the recorded compute time is written at (default 1e9)")
      ->check(CLI::PositiveNumber);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  }
  try {
    namespace cli = amp::trace::cli;
    if (*info) return cli::run_info(input);
    if (*stats) return cli::run_stats(input, json, matrix_csv);
    if (*dump) return cli::run_dump(input, dumpi2ascii);
    if (*validate) return cli::run_validate(input);
    if (*repair) return cli::run_repair(input, output);
    if (*check) return cli::run_check(input, json, in_flight_only);
    if (*otf2) return cli::run_otf2(input, output);
    if (*simgrid) return cli::run_simgrid(input, output, host_speed);
  } catch (const std::exception& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "amp-trace: %s\n", error.what());
    return 2;
  }
  return 1;
}
