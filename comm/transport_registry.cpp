// The table of transports, filled by the transport files' registrars before main() runs; what fits
// what, and why a combination is refused, is decided here from what each transport registered.
#include "transport_registry.hpp"

#include "mpi_buffers.hpp"

#include "data_movement.hpp"

#include "strategy_registry.hpp"

#include <mpi.h>

#include <algorithm>
#include <stdexcept>

namespace amp::comm {

namespace {

// Built on first use, so that registrars in any translation unit find it constructed.
std::vector<TransportRegistration>& table() {
  static std::vector<TransportRegistration> transports;
  return transports;
}

const TransportRegistration* find(const std::string& name) {
  for (const TransportRegistration& entry : table())
    if (entry.name == name) return &entry;
  return nullptr;
}

bool strategy_fits(const TransportRegistration& entry, const std::string& strategy) {
  return entry.fits.empty() || std::find(entry.fits.begin(), entry.fits.end(), strategy) != entry.fits.end();
}

// An in-place transport gives MPI the variables' storage, which it cannot reach when staged.
bool reaches_the_data(const TransportRegistration& entry) {
  return entry.data_access != DataAccess::kInPlace || !MpiBuffers::staged();
}

bool fits(const TransportRegistration& entry, const std::string& strategy) {
  return strategy_fits(entry, strategy) && entry.mpi_version <= MPI_VERSION && reaches_the_data(entry);
}

std::string join(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

bool register_transport(TransportRegistration registration) {
  if (registration.name.empty() || registration.factory == nullptr || find(registration.name))
    throw std::logic_error("transport '" + registration.name + "' registered twice, or without a name or factory");
  auto& transports = table();
  transports.push_back(std::move(registration));
  std::sort(transports.begin(), transports.end(), [](const TransportRegistration& a, const TransportRegistration& b) {
    return a.listed_at != b.listed_at ? a.listed_at < b.listed_at : a.name < b.name;
  });
  return true;
}

std::vector<TransportRegistration> registered_transports() { return table(); }

std::vector<std::string> transport_names() {
  std::vector<std::string> names;
  for (const TransportRegistration& entry : table()) names.push_back(entry.name);
  return names;
}

std::string transport_list() { return join(transport_names()); }

std::string transports_fitting(const std::string& strategy) {
  std::vector<std::string> names;
  for (const TransportRegistration& entry : table())
    if (fits(entry, strategy)) names.push_back(entry.name);
  return join(names);
}

std::string synthesizable_transports() {
  std::vector<std::string> names;
  for (const TransportRegistration& entry : table())
    if (entry.not_synthesizable == nullptr) names.push_back(entry.name);
  return join(names);
}

std::string combination_refusal(const std::string& transport, const std::string& strategy) {
  const TransportRegistration* entry = find(transport);
  if (!entry || !is_strategy(strategy)) return "";
  if (entry->mpi_version > MPI_VERSION)
    return "transport '" + transport + "' needs MPI " + std::to_string(entry->mpi_version) + ".0, this MPI is " +
           std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION) + " (with " + strategy +
           " use " + transports_fitting(strategy) + ")";
  if (!strategy_fits(*entry, strategy))
    return "transport '" + transport + "' does not fit strategy '" + strategy + "' (" + transport + " fits " +
           join(entry->fits) + "; " + strategy + " fits " + transports_fitting(strategy) + ")";
  if (!reaches_the_data(*entry))
    return "transport '" + transport + "' hands MPI the variables' storage in place, and MPI's buffers are " +
           MpiBuffers::description() + " (with " + strategy + " use " + transports_fitting(strategy) + ")";
  return "";
}

std::string transport_problem(const std::string& transport, const std::string& strategy) {
  const TransportRegistration* entry = find(transport);
  if (!entry) return "unknown transport '" + transport + "' (use " + transport_list() + ")";
  if (!is_strategy(strategy)) return "unknown communication strategy '" + strategy + "' (use " + strategy_list() + ")";
  const std::string refusal = combination_refusal(transport, strategy);
  if (!refusal.empty()) return refusal;
  if (!DataMovement::on() && entry->not_synthesizable != nullptr)
    return "transport '" + transport + "' cannot be synthesized: " + entry->not_synthesizable +
           " (synthesize with " + synthesizable_transports() + ")";
  return "";
}

bool transport_replayable(const std::string& transport) {
  const TransportRegistration* entry = find(transport);
  return entry && entry->replayable;
}

std::unique_ptr<Transport> make_transport(const std::string& transport, const std::string& strategy,
                                          ExchangeState& state) {
  const std::string problem = transport_problem(transport, strategy);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const TransportRegistration* entry = find(transport);
  std::unique_ptr<Transport> made = entry->factory(state);
  made->data_access_ = entry->data_access;
  return made;
}

}  // namespace amp::comm
