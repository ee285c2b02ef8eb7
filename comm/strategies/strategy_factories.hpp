// Factory functions, one per strategy file; only strategy_registry.cpp lists them.
#pragma once

#include <comm/strategy.hpp>

#include <memory>
#include <string>

namespace amp::comm {

std::unique_ptr<Strategy> make_bspma(ExchangePlan plan, const std::string& transport, MPI_Comm comm);
std::unique_ptr<Strategy> make_svaf(ExchangePlan plan, const std::string& transport, MPI_Comm comm);
std::unique_ptr<Strategy> make_svcp(ExchangePlan plan, const std::string& transport, MPI_Comm comm);

}  // namespace amp::comm
