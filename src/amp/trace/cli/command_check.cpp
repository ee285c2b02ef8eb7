// SPDX-License-Identifier: BSD-3-Clause
// amp-trace check: one line per finding ("rank R record N CALL: ..."), at most 20 of each kind then
// "... and N more", and a summary line; or JSON (--json). Exit 0 when clean, 1 on findings.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include <amp/trace/reader/replay_check.hpp>
#include <amp/trace/cli/commands.hpp>
#include <amp/trace/format/json_schema_version.hpp>

namespace amp::trace::cli {

namespace {

constexpr std::size_t kPrintedPerKind = 20;

void print_json(const TraceSet& set, const ReplayCheckReport& report) {
  nlohmann::json out;
  out["schema_version"] = kJsonSchemaVersion;
  out["trace"] = set.description;
  out["ranks"] = report.ranks;
  out["records"] = report.records;
  out["messages"] = report.messages;
  out["matched"] = report.matched;
  out["peak_in_flight"] = report.peak_in_flight;
  out["findings"] = nlohmann::json::array();
  for (const ReplayFinding& f : report.findings)
    out["findings"].push_back({{"kind", finding_kind_name(f.kind)},
                               {"rank", f.rank},
                               {"record", f.record},
                               {"offset", f.offset},
                               {"call", f.call},
                               {"message", f.message}});
  out["counts"] = nlohmann::json::object();
  for (std::size_t k = 0; k < kFindingKinds; ++k)
    out["counts"][finding_kind_name(static_cast<FindingKind>(k))] = report.counts[k];
  out["total"] = report.total();
  std::cout << out.dump(2) << '\n';
}

void print_lines(const TraceSet& set, const ReplayCheckReport& report) {
  for (std::size_t k = 0; k < kFindingKinds; ++k) {
    const auto kind = static_cast<FindingKind>(k);
    std::size_t printed = 0;
    for (const ReplayFinding& f : report.findings) {
      if (f.kind != kind || printed == kPrintedPerKind) continue;
      std::cout << fmt::format("rank {} record {} {}: {}\n", f.rank, f.record, f.call, f.message);
      ++printed;
    }
    if (report.counts[k] > printed)
      std::cout << fmt::format("... and {} more {} findings\n", report.counts[k] - printed, finding_kind_name(kind));
  }
  std::string by_kind;
  for (std::size_t k = 0; k < kFindingKinds; ++k)
    if (report.counts[k] != 0)
      by_kind += fmt::format("{}{} {}", by_kind.empty() ? "" : ", ", report.counts[k],
                             finding_kind_name(static_cast<FindingKind>(k)));
  std::cout << fmt::format(
      "{}: {} ranks, {} records, {} messages ({} matched): {}\n", set.description, report.ranks, report.records,
      report.messages, report.matched,
      report.total() == 0 ? std::string("clean") : fmt::format("{} findings ({})", report.total(), by_kind));
}

}  // namespace

int run_check(const std::string& input, bool json, bool in_flight_only) {
  TraceSet set = locate_trace(input);
  ReplayCheckOptions options;
  options.keep_per_kind = kPrintedPerKind;
  options.every_size_change = !in_flight_only;
  ReplayCheckReport report = check_replay(set, options);
  if (json)
    print_json(set, report);
  else
    print_lines(set, report);
  return report.total() == 0 ? 0 : 1;
}

}  // namespace amp::trace::cli
