// SPDX-License-Identifier: BSD-3-Clause
// amp-trace repair: rebuilds footer and index of one .bin and says exactly what it wrote and
// where the untouched original now is.
#include <fmt/format.h>

#include <iostream>

#include <amp/trace/reader/trace_repair.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_repair(const std::string& bin_path, const std::string& output_path) {
  RepairResult result = repair_trace_file(bin_path, output_path);
  std::cout << fmt::format("repaired: {} ({} complete records kept, {} trailing bytes dropped)\n", result.output_path,
                           result.records_kept, result.bytes_dropped);
  if (!result.backup_path.empty()) std::cout << fmt::format("original kept as: {}\n", result.backup_path);
  std::cout << "note: datatype sizes were rebuilt from the built-in LP64 table and the type records in the stream\n";
  return 0;
}

}  // namespace amp::trace::cli
