// The table of transports: name -> factory, the strategies it fits, DUMPI-recordable, MPI version,
// and why a synthesis cannot write its calls (if it cannot).
#include "transport_registry.hpp"

#include "data_movement.hpp"

#include "strategy_registry.hpp"
#include "transports/transport_factories.hpp"

#include <mpi.h>

#include <algorithm>
#include <stdexcept>

namespace amp::comm {

namespace {

struct TransportEntry {
  std::string name;
  std::unique_ptr<Transport> (*factory)(ExchangeState&);
  std::vector<std::string> fits;  // strategies; empty: all of them
  bool replayable;                // every call it makes has a DUMPI record
  int mpi_version;                // the MPI standard version its calls need
  const char* not_synthesizable;  // why a synthesis (data_movement.hpp) cannot write it; null: it can
};

const std::vector<TransportEntry>& registry() {
  static const std::vector<TransportEntry> table = {
      {"isend", make_isend_transport, {}, true, 1, nullptr},
      {"persistent", make_persistent_transport, {}, true, 1, nullptr},
      {"partitioned", make_partitioned_transport, {}, false, 4, "its calls have no DUMPI record"},
      {"rma", make_rma_transport, {}, true, 2,
       "its put offsets are learned from the peers at set-up, and a synthesis receives nothing"},
      {"neighbor", make_neighbor_transport, {"bspma", "svaf"}, false, 3, "its calls have no DUMPI record"},
      {"datatype", make_datatype_transport, {}, true, 1, nullptr},
  };
  return table;
}

const TransportEntry* find(const std::string& name) {
  for (const TransportEntry& entry : registry())
    if (entry.name == name) return &entry;
  return nullptr;
}

bool fits(const TransportEntry& entry, const std::string& strategy) {
  const bool strategy_fits =
      entry.fits.empty() || std::find(entry.fits.begin(), entry.fits.end(), strategy) != entry.fits.end();
  return strategy_fits && entry.mpi_version <= MPI_VERSION;
}

std::string join(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

std::vector<std::string> transport_names() {
  std::vector<std::string> names;
  for (const TransportEntry& entry : registry()) names.push_back(entry.name);
  return names;
}

std::string transport_list() { return join(transport_names()); }

std::string transports_fitting(const std::string& strategy) {
  std::vector<std::string> names;
  for (const TransportEntry& entry : registry())
    if (fits(entry, strategy)) names.push_back(entry.name);
  return join(names);
}

std::string synthesizable_transports() {
  std::vector<std::string> names;
  for (const TransportEntry& entry : registry())
    if (entry.not_synthesizable == nullptr) names.push_back(entry.name);
  return join(names);
}

std::string transport_problem(const std::string& transport, const std::string& strategy) {
  const TransportEntry* entry = find(transport);
  if (!entry) return "unknown transport '" + transport + "' (use " + transport_list() + ")";
  if (!is_strategy(strategy)) return "unknown communication strategy '" + strategy + "' (use " + strategy_list() + ")";
  if (entry->mpi_version > MPI_VERSION)
    return "transport '" + transport + "' needs MPI " + std::to_string(entry->mpi_version) + ".0, this MPI is " +
           std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION) + " (with " + strategy +
           " use " + transports_fitting(strategy) + ")";
  if (!fits(*entry, strategy))
    return "transport '" + transport + "' does not fit strategy '" + strategy + "' (" + transport + " fits " +
           join(entry->fits) + "; " + strategy + " fits " + transports_fitting(strategy) + ")";
  if (!DataMovement::on() && entry->not_synthesizable != nullptr)
    return "transport '" + transport + "' cannot be synthesized: " + entry->not_synthesizable +
           " (synthesize with " + synthesizable_transports() + ")";
  return "";
}

bool transport_replayable(const std::string& transport) {
  const TransportEntry* entry = find(transport);
  return entry && entry->replayable;
}

std::unique_ptr<Transport> make_transport(const std::string& transport, const std::string& strategy,
                                          ExchangeState& state) {
  const std::string problem = transport_problem(transport, strategy);
  if (!problem.empty()) throw std::invalid_argument(problem);
  return find(transport)->factory(state);
}

}  // namespace amp::comm
