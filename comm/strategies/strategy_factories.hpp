// Factory functions, one per strategy file; only strategy_registry.cpp lists them.
#pragma once

#include <comm/strategy.hpp>

#include <memory>

namespace amp::comm {

std::unique_ptr<Strategy> make_bspma(ExchangePlan plan);
std::unique_ptr<Strategy> make_svaf(ExchangePlan plan);
std::unique_ptr<Strategy> make_svcp(ExchangePlan plan);

}  // namespace amp::comm
