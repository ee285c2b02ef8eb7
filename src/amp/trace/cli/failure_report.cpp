// SPDX-License-Identifier: BSD-3-Clause
// amp-trace's one-line failures: CLI11's parse errors reworded to `amp-trace: error: ...` (exit 2,
// like every usage error in AMP), other errors as `amp-trace: ...`, and the final check that
// standard output really reached its destination.
#include <amp/trace/cli/failure_report.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include <amp/trace/reader/trace_error.hpp>

namespace amp::trace::cli {

namespace {

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string subcommand_names(const CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

}  // namespace

int usage_error(const CLI::ParseError& error, const CLI::App& app, const std::string& first_argument) {
  std::string what = one_line(error.what());
  if (app.get_subcommands().empty()) {  // nothing after `amp-trace` was understood
    if (!first_argument.empty())
      what = (first_argument[0] == '-' ? "unknown option '" : "unknown subcommand '") + first_argument + "'";
    what += " (one of: " + subcommand_names(app) + "; see amp-trace --help)";
  } else
    what += " (see amp-trace " + app.get_subcommands().front()->get_name() + " --help)";
  std::fflush(stdout);
  std::fprintf(stderr, "amp-trace: error: %s\n", what.c_str());
  return 2;
}

int report_failure(const std::exception& error, int exit_code) {
  std::cout.flush();
  std::fflush(stdout);
  std::fprintf(stderr, "amp-trace: %s\n", one_line(error.what()).c_str());
  return exit_code;
}

void finish_standard_output() {
  const int earlier = errno;  // a write that failed before (the stream stops writing after it) set it
  errno = 0;
  std::cout.flush();
  const bool stream_failed = !std::cout.good();
  const bool flush_failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (stream_failed || flush_failed) {
    const int error = errno != 0 ? errno : earlier != 0 ? earlier : EIO;
    std::cout.clear();
    throw OutputWriteError(std::string("cannot write to standard output: ") + std::strerror(error) +
                           "; the output is incomplete");
  }
}

}  // namespace amp::trace::cli
