// SPDX-License-Identifier: BSD-3-Clause
// The registries as one listing: JSON for scripts, a short table for people.
#include <amp/miniapps/common/combination_list.hpp>

#include <amp/miniapps/common/errors.hpp>

#include <amp/comm/combination.hpp>
#include <amp/comm/transport_registry.hpp>
#include <amp/trace/format/json_schema_version.hpp>

#include <mpi.h>

#include <cstdio>
#include <string>

namespace amp {

namespace {

// MPI_Get_library_version may be called before MPI_Init; its first line names the library.
std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string line(text, static_cast<std::size_t>(length));
  const std::size_t end = line.find('\n');
  if (end != std::string::npos) line.erase(end);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
  return line;
}

const char* cut_name(comm::MessageCut cut) { return cut == comm::MessageCut::kPerLink ? "per_link" : "per_piece"; }

}  // namespace

nlohmann::json combination_list(const char* proxy, const comm::ExchangeContext& context) {
  nlohmann::json list;
  list["schema_version"] = kJsonSchemaVersion;
  list["proxy"] = proxy;
  list["mpi"] = {{"version", std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION)},
                 {"library", mpi_library()},
                 {"buffers", context.buffers.description()}};
  list["strategies"] = nlohmann::json::array();
  for (const comm::StrategyRegistration& s : comm::registered_strategies())
    list["strategies"].push_back({{"name", s.name},
                                  {"description", s.description},
                                  {"cut", cut_name(s.produces.cut)},
                                  {"variables_per_group", s.produces.group_size}});
  list["transports"] = nlohmann::json::array();
  for (const comm::TransportRegistration& t : comm::registered_transports()) {
    const comm::TraceTraits& tracing = t.tracing;  // said where the transport registers
    nlohmann::json transport = {{"name", t.name},
                                {"description", t.description},
                                {"mpi_version", std::to_string(t.mpi_version) + ".0"},
                                {"mpi_feature", t.mpi_feature},
                                {"available", t.mpi_version <= MPI_VERSION},
                                {"in_place", t.data_access == comm::DataAccess::kInPlace},
                                {"needs_cut", t.needs == comm::CutNeeded::kPerLink ? "per_link" : "any"},
                                {"replayable", tracing.replayable},
                                {"synthesizable", tracing.not_synthesizable == nullptr}};
    if (tracing.not_synthesizable != nullptr) transport["not_synthesizable"] = tracing.not_synthesizable;
    list["transports"].push_back(transport);
  }
  list["combinations"] = nlohmann::json::array();
  for (const comm::TransportRegistration& t : comm::registered_transports())
    for (const comm::StrategyRegistration& s : comm::registered_strategies()) {
      const std::string refusal = comm::combination_refusal(s.name, t.name, context.buffers);
      nlohmann::json pair = {{"strategy", s.name}, {"transport", t.name}, {"fits", refusal.empty()}};
      if (!refusal.empty()) pair["refusal"] = refusal;
      list["combinations"].push_back(pair);
    }
  return list;
}

void add_listing_options(CLI::App& app, ListingOptions& options) {
  CLI::Option* list = app.add_flag("--list-combinations", options.list,
                                   "print the strategies, transports and which pairs fit here, then exit");
  app.add_flag("--json", options.json, "with --list-combinations: as JSON")->needs(list);
}

bool print_combination_list(const char* proxy, const ListingOptions& options, const Environment& env) {
  if (!options.list) return false;
  env.mode().check_listing();
  if (env.tracing()) throw InputError("--list-combinations runs nothing, so there is nothing to --trace");
  if (env.rank() != 0) return true;
  const nlohmann::json list = combination_list(proxy, env.exchange_context());
  if (options.json) {
    std::printf("%s\n", list.dump(2).c_str());
    return true;
  }
  std::printf("%s with %s (MPI %s), MPI's buffers: %s\nstrategies:\n", proxy,
              list["mpi"]["library"].get<std::string>().c_str(), list["mpi"]["version"].get<std::string>().c_str(),
              list["mpi"]["buffers"].get<std::string>().c_str());
  for (const auto& s : list["strategies"])
    std::printf("  %-12s %s\n", s["name"].get<std::string>().c_str(), s["description"].get<std::string>().c_str());
  std::printf("transports:\n");
  for (const auto& t : list["transports"])
    std::printf("  %-12s %s (MPI %s%s%s)\n", t["name"].get<std::string>().c_str(),
                t["description"].get<std::string>().c_str(), t["mpi_version"].get<std::string>().c_str(),
                t["replayable"].get<bool>() ? ", replayable" : "", t["available"].get<bool>() ? "" : ", not here");
  std::printf("refused here:\n");
  for (const auto& c : list["combinations"])
    if (!c["fits"].get<bool>()) std::printf("  %s\n", c["refusal"].get<std::string>().c_str());
  return true;
}

}  // namespace amp
