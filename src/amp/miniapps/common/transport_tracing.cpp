// SPDX-License-Identifier: BSD-3-Clause
// The transports' trace facts (transport_tracing.hpp), by the names they register under.
#include <amp/miniapps/common/transport_tracing.hpp>

#include <amp/comm/transport_registry.hpp>

#include <map>

namespace amp {

namespace {

constexpr const char* kNoDumpiRecord = "its calls have no DUMPI record";

const std::map<std::string, TransportTracing>& known() {
  static const std::map<std::string, TransportTracing> facts = {
      {"isend", {true, nullptr}},
      {"persistent", {true, nullptr}},
      {"partitioned", {false, kNoDumpiRecord}},
      // MPI_Win_lock_all, MPI_Win_flush and MPI_Win_sync (MPI-3) have no DUMPI record.
      {"rma", {false, "its put offsets are learned from the peers at set-up, and a synthesis receives nothing"}},
      {"neighbor", {false, kNoDumpiRecord}},
      {"datatype", {true, nullptr}},
  };
  return facts;
}

// The registered transports a synthesis can write, as a list for messages.
std::string synthesizable_transports() {
  std::string list;
  for (const std::string& name : comm::transport_names())
    if (transport_tracing(name).not_synthesizable == nullptr) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

TransportTracing transport_tracing(const std::string& transport) {
  const auto found = known().find(transport);
  if (found != known().end()) return found->second;
  return {false, "the trace side has no record of its calls (miniapps/common/transport_tracing.cpp)"};
}

std::string synthesis_problem(const std::string& transport) {
  const char* why = transport_tracing(transport).not_synthesizable;
  if (why == nullptr) return "";
  return "transport '" + transport + "' cannot be synthesized: " + why + " (synthesize with " +
         synthesizable_transports() + ")";
}

}  // namespace amp
