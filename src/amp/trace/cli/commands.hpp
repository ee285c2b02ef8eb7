// SPDX-License-Identifier: BSD-3-Clause
// The amp-trace subcommands, each a function from parsed options to an exit status; main() turns
// any TraceFormatError or other exception into one line on stderr and a non-zero exit.
#pragma once

#include <cstddef>
#include <string>

namespace amp::trace::cli {

int run_info(const std::string& input);
int run_dump(const std::string& input, bool dumpi2ascii_layout);
int run_stats(const std::string& input, bool json, const std::string& matrix_csv_path);
int run_validate(const std::string& input);
int run_repair(const std::string& bin_path, const std::string& output_path);
// Exit status 0 when the replay check finds nothing, 1 when it finds something.
int run_check(const std::string& input, bool json, bool in_flight_only);
int run_otf2(const std::string& input, const std::string& output_directory);
int run_simgrid(const std::string& input, const std::string& output_directory, double host_speed_flops);
int run_sstmac(const std::string& input, const std::string& output_directory);
int run_codes(const std::string& input, const std::string& output_directory);

}  // namespace amp::trace::cli
