// SPDX-License-Identifier: BSD-3-Clause
// The table of transports, filled by the transport files' registrars before main() runs.
#include <amp/comm/transport_registry.hpp>

#include <amp/comm/impl/transport.hpp>

#include <algorithm>
#include <stdexcept>

namespace amp::comm {

namespace {

// Built on first use, so that registrars in any translation unit find it constructed.
std::vector<TransportRegistration>& table() {
  static std::vector<TransportRegistration> transports;
  return transports;
}

}  // namespace

bool register_transport(TransportRegistration registration) {
  if (registration.name.empty() || registration.factory == nullptr || find_transport(registration.name))
    throw std::logic_error("transport '" + registration.name + "' registered twice, or without a name or factory");
  auto& transports = table();
  transports.push_back(std::move(registration));
  std::sort(transports.begin(), transports.end(), [](const TransportRegistration& a, const TransportRegistration& b) {
    return a.listed_at != b.listed_at ? a.listed_at < b.listed_at : a.name < b.name;
  });
  return true;
}

std::vector<TransportRegistration> registered_transports() { return table(); }

const TransportRegistration* find_transport(const std::string& name) {
  for (const TransportRegistration& entry : table())
    if (entry.name == name) return &entry;
  return nullptr;
}

std::vector<std::string> transport_names() {
  std::vector<std::string> names;
  for (const TransportRegistration& entry : table()) names.push_back(entry.name);
  return names;
}

std::string transport_list() {
  std::string list;
  for (const TransportRegistration& entry : table()) list += (list.empty() ? "" : ", ") + entry.name;
  return list;
}

std::unique_ptr<Transport> build_transport(const TransportRegistration& transport, ExchangeState& state) {
  std::unique_ptr<Transport> made = transport.factory(state);
  made->data_access_ = transport.data_access;
  return made;
}

}  // namespace amp::comm
