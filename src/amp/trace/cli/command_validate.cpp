// SPDX-License-Identifier: BSD-3-Clause
// amp-trace validate: structural checks of every rank's file; prints "valid: ..." or the first
// problem (through main's one-line error, exit status 2).
#include <fmt/format.h>

#include <iostream>

#include <amp/trace/reader/trace_validation.hpp>
#include <amp/trace/cli/commands.hpp>

namespace amp::trace::cli {

int run_validate(const std::string& input) {
  TraceSet set = locate_trace(input);
  ValidationSummary summary = validate_trace(set);
  std::cout << fmt::format("valid: {} ({} files, {} records)\n", set.description, summary.files, summary.records);
  return 0;
}

}  // namespace amp::trace::cli
