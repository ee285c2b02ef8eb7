// SPDX-License-Identifier: BSD-3-Clause
// Flag checks, the plan's JSON form (dump and summary) and the one-line plan-only report.
#include <amp/miniapps/common/plan_only.hpp>

#include <amp/miniapps/common/errors.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/trace/format/json_schema_version.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sys/resource.h>
#include <time.h>

namespace amp {

void add_plan_options(CLI::App& app, PlanOptions& o) {
  app.add_flag("--plan-only", o.plan_only,
               "build only the exchange plan of rank --rank of --ranks virtual ranks, in one process; "
               "report its time and peak memory");
  app.add_option("--ranks", o.ranks, "with --plan-only or --synthesize: the virtual rank count");
  // --synthesize's value is read once, into the start request (start_request.hpp), for the synthesis.
  app.add_option("--synthesize",
                 "write the DUMPI traces of --ranks virtual ranks into DIR, in one process, with compute "
                 "replaced by a model measured on this machine (docs/TRACE_FORMAT.md)")
      ->type_name("TEXT");
  app.add_option("--compute_seconds", o.compute_seconds,
                 "with --synthesize: seconds per compute step instead of measuring them");
  app.add_option("--rank", o.rank, "with --plan-only: the rank whose plan is built");
  app.add_option("--dump-plan", o.dump_file, "testing: write each rank's exchange plan as JSON to FILE.<rank>")
      ->group("");
}

void check_virtual_ranks(std::int64_t ranks, const std::string& as_given) {
  const std::string shown = as_given.empty() ? std::to_string(ranks) : as_given;
  if (ranks < 1) throw InputError(fmt::format("--ranks must be at least 1 (got {})", shown));
  if (ranks > kMaxVirtualRanks)
    throw InputError(fmt::format("--ranks must be at most {} (got {})", kMaxVirtualRanks, shown));
}

std::int64_t virtual_rank_count(const std::string& text) {
  const char* begin = text.data() + (text.size() > 1 && text[0] == '+' ? 1 : 0);
  const char* end = text.data() + text.size();
  std::int64_t value = 0;
  const auto [stop, error] = std::from_chars(begin, end, value);
  if (stop != end || (error != std::errc() && error != std::errc::result_out_of_range))
    throw InputError(fmt::format("--ranks: '{}' is not a number", text));
  if (error == std::errc::result_out_of_range) value = text[0] == '-' ? INT64_MIN : INT64_MAX;
  return value;
}

void check_compute_seconds(double seconds, const std::string& as_given) {
  const std::string shown = as_given.empty() ? fmt::format("{}", seconds) : as_given;
  if (!(seconds >= 0)) throw InputError(fmt::format("--compute_seconds must be >= 0 (got {})", shown));
  if (!std::isfinite(seconds) || seconds > kMaxComputeSeconds)
    throw InputError(fmt::format("--compute_seconds must be at most {} seconds (got {})", kMaxComputeSeconds, shown));
}

namespace {

std::string dump_path(const std::string& file, int rank) { return file + "." + std::to_string(rank); }

}  // namespace

PlanTarget real_plan_target(const PlanOptions& o, const TraceRequest& trace, const Environment& env) {
  PlanTarget target{env.rank(), env.size()};
  if (o.compute_seconds) {
    throw InputError("--compute_seconds needs --synthesize");
  } else if (o.plan_only) {
    const std::int64_t ranks = o.ranks ? virtual_rank_count(*o.ranks) : 0;
    if (ranks < 1)
      throw InputError(fmt::format("--plan-only needs --ranks N with N >= 1 (got {})", o.ranks.value_or("0")));
    check_virtual_ranks(ranks, *o.ranks);
    if (o.rank == -1)
      throw InputError(fmt::format("--plan-only needs --rank R, the rank whose plan is built (0..{} for --ranks {})",
                                   ranks - 1, ranks));
    if (o.rank < 0 || o.rank >= ranks)
      throw InputError(fmt::format("--rank must be 0..{} for --ranks {} (got {})", ranks - 1, ranks, o.rank));
    if (env.size() != 1)
      throw InputError(fmt::format("--plan-only runs in one process (started with {} MPI ranks)", env.size()));
    if (!trace.directory.empty() || trace.setup)
      throw InputError("--plan-only runs no exchange, so there is nothing to --trace");
    target = {static_cast<int>(o.rank), static_cast<int>(ranks)};  // both checked against kMaxVirtualRanks
  } else if (o.ranks || o.rank != -1) {
    throw InputError("--ranks and --rank need --plan-only or --synthesize (a real run uses the MPI rank count)");
  }
  return target;
}

PlanTarget checked_plan_target(const PlanOptions& o, const TraceRequest& trace, const Environment& env) {
  const PlanTarget target = env.mode().plan_target(o, trace, env);
  if (!o.dump_file.empty()) {
    const std::string path = dump_path(o.dump_file, target.rank);
    int exists = std::filesystem::exists(path) ? 1 : 0, any = 0;
    MPI_Allreduce(&exists, &any, 1, MPI_INT, MPI_MAX, env.comm());
    if (any != 0)
      throw InputError(
          fmt::format("plan dump '{}.<rank>' already exists; choose a new name (nothing is overwritten)", o.dump_file));
  }
  return target;
}

namespace {

nlohmann::json piece_json(const comm::Piece& p) {
  if (!p.indices.empty()) return {{"indices", p.indices}};
  return {
      {"offset", p.offset}, {"count", p.count}, {"stride", p.stride}, {"rows", p.rows}, {"row_stride", p.row_stride}};
}

nlohmann::json pieces_json(const std::vector<comm::Piece>& pieces) {
  nlohmann::json out = nlohmann::json::array();
  for (const comm::Piece& p : pieces) out.push_back(piece_json(p));
  return out;
}

struct PlanSize {
  std::int64_t send_pieces = 0, recv_pieces = 0, send_elements = 0, recv_elements = 0;
};

PlanSize plan_size(const comm::ExchangePlan& plan) {
  PlanSize s;
  for (const comm::Link& link : plan.links) {
    s.send_pieces += static_cast<std::int64_t>(link.send.size());
    s.recv_pieces += static_cast<std::int64_t>(link.recv.size());
    for (const comm::Piece& p : link.send) s.send_elements += p.size();
    for (const comm::Piece& p : link.recv) s.recv_elements += p.size();
  }
  return s;
}

}  // namespace

nlohmann::json plan_json(const comm::ExchangePlan& plan, const PlanTarget& target) {
  nlohmann::json links = nlohmann::json::array();
  for (const comm::Link& link : plan.links)
    links.push_back({{"peer", link.peer},
                     {"phase", link.phase},
                     {"send", pieces_json(link.send)},
                     {"recv", pieces_json(link.recv)}});
  return {{"rank", target.rank},
          {"ranks", target.ranks},
          {"num_vars", plan.num_vars},
          {"num_phases", plan.num_phases},
          {"message_class", static_cast<int>(plan.message_class)},
          {"tag_epoch", plan.tag_epoch},
          {"links", links}};
}

void dump_plan(const PlanOptions& o, const comm::ExchangePlan& plan, const PlanTarget& target) {
  if (o.dump_file.empty()) return;
  const std::string path = dump_path(o.dump_file, target.rank);
  std::ofstream out(path);
  out << plan_json(plan, target).dump(1) << '\n';
  out.close();
  if (!out) throw std::runtime_error("cannot write plan dump '" + path + "'");
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

namespace {

double cpu_now_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

PlanBuild PlanBuild::started() {
  PlanBuild build;
  build.rss_before_mib = peak_rss_mib();
  build.start = now_seconds();
  build.cpu_start = cpu_now_seconds();
  return build;
}

void PlanBuild::stop() {
  seconds = now_seconds() - start;
  cpu_seconds = cpu_now_seconds() - cpu_start;
}

bool plan_only_done(const char* proxy, const PlanOptions& o, ReservedOutput& results_file,
                    const comm::ExchangePlan& plan, const PlanTarget& target, const PlanBuild& build) {
  if (!o.plan_only) {
    dump_plan(o, plan, target);
    return false;
  }
  plan.validate(target.rank, target.ranks);
  const PlanSize size = plan_size(plan);
  const double peak = peak_rss_mib();
  std::string extra_text;
  for (const auto& [key, value] : build.extra.items()) extra_text += fmt::format(", {} {}", key, value.dump());
  fmt::print(
      "{} plan-only: rank {} of {}: plan {:.3f} s ({:.3f} s CPU), peak RSS {:.1f} MiB ({:.1f} before set-up), "
      "links {}, pieces {} send + {} recv, elements {} send + {} recv{}\n",
      proxy, target.rank, target.ranks, build.seconds, build.cpu_seconds, peak, build.rss_before_mib, plan.links.size(),
      size.send_pieces, size.recv_pieces, size.send_elements, size.recv_elements, extra_text);
  nlohmann::json results = {{"schema_version", kResultsSchemaVersion},
                            {"proxy", proxy},
                            {"mode", "plan-only"},
                            {"rank", target.rank},
                            {"ranks", target.ranks},
                            {"plan_seconds", build.seconds},
                            {"plan_cpu_seconds", build.cpu_seconds},
                            {"peak_rss_mib", peak},
                            {"rss_before_setup_mib", build.rss_before_mib},
                            {"links", plan.links.size()},
                            {"phases", plan.num_phases},
                            {"send_pieces", size.send_pieces},
                            {"recv_pieces", size.recv_pieces},
                            {"send_elements", size.send_elements},
                            {"recv_elements", size.recv_elements}};
  for (const auto& [key, value] : build.extra.items()) results[key] = value;
  dump_plan(o, plan, target);
  const std::string not_written = results_file.write(results.dump(2) + '\n');
  if (!not_written.empty()) throw ResultsFileError(not_written);
  return true;
}

}  // namespace amp
