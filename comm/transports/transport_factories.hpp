// Factory functions, one per transport file; only transport_registry.cpp lists them.
#pragma once

#include <comm/transport.hpp>

#include <memory>

namespace amp::comm {

std::unique_ptr<Transport> make_isend_transport(ExchangeState& state);
std::unique_ptr<Transport> make_persistent_transport(ExchangeState& state);
std::unique_ptr<Transport> make_partitioned_transport(ExchangeState& state);
std::unique_ptr<Transport> make_rma_transport(ExchangeState& state);
std::unique_ptr<Transport> make_neighbor_transport(ExchangeState& state);
std::unique_ptr<Transport> make_datatype_transport(ExchangeState& state);

}  // namespace amp::comm
