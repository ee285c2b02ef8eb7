// SPDX-License-Identifier: BSD-3-Clause
// amp-trace: inspect, summarise, check and repair DUMPI traces (from AMP's libamp_dumpi or
// sst-dumpi). Subcommands: info, stats, dump, validate, repair, check, otf2, simgrid, sstmac, codes.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

#include <amp/trace/reader/trace_error.hpp>
#include <amp/trace/cli/commands.hpp>
#include <amp/trace/cli/failure_report.hpp>

int main(int argc, char** argv) {
  namespace cli = amp::trace::cli;
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
  simgrid
      ->add_option("output", output, "the directory to create (must not exist): rank-<r>.txt, ranks.txt, export.json")
      ->required();
  auto* sstmac = app.add_subcommand("sstmac", "a copy for SST-macro's replay, whose paused set-up takes no time");
  sstmac->add_option("trace", input, "trace (.meta, prefix or directory)")->required();
  sstmac->add_option("output", output, "the directory to create (must not exist): the .meta and every .bin")
      ->required();
  auto* codes = app.add_subcommand("codes",
                                   "a copy for CODES' replay (model-net-mpi-replay): world ranks, "
                                   "collectives as point-to-point messages");
  codes->add_option("trace", input, "trace (.meta, prefix or directory)")->required();
  codes->add_option("output", output, "the directory to create (must not exist): the .meta and every .bin")->required();

  double host_speed = 1e9;
  simgrid->add_option("--host-speed", host_speed, "flop/s the recorded compute time is written at (default 1e9)")
      ->check(CLI::Validator(
          [](std::string& text) {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            const bool good = end != text.c_str() && *end == '\0' && std::isfinite(value) && value > 0;
            return good ? std::string() : "'" + text + "' is not a positive number of flop/s (e.g. 1e9)";
          },
          "FLOP/S"));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() != 0) return cli::usage_error(error, app, argc > 1 ? argv[1] : "");
    app.exit(error);  // --help: the help text, which must reach standard output too
    try {
      cli::finish_standard_output();
      return 0;
    } catch (const amp::trace::OutputWriteError& lost) {
      return cli::report_failure(lost, 4);
    }
  }
  int status = 1;
  try {
    if (*info) status = cli::run_info(input);
    if (*stats) status = cli::run_stats(input, json, matrix_csv);
    if (*dump) status = cli::run_dump(input, dumpi2ascii);
    if (*validate) status = cli::run_validate(input);
    if (*repair) status = cli::run_repair(input, output);
    if (*check) status = cli::run_check(input, json, in_flight_only);
    if (*otf2) status = cli::run_otf2(input, output);
    if (*simgrid) status = cli::run_simgrid(input, output, host_speed);
    if (*sstmac) status = cli::run_sstmac(input, output);
    if (*codes) status = cli::run_codes(input, output);
    cli::finish_standard_output();
  } catch (const amp::trace::OutputWriteError& error) {
    return cli::report_failure(error, 4);
  } catch (const std::exception& error) {
    return cli::report_failure(error, 2);
  }
  return status;
}
