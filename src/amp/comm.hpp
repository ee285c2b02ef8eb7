// SPDX-License-Identifier: BSD-3-Clause
// AMP's comm layer in one include: every public header of comm/ (what an application names: the plan,
// the context, the strategy it drives, the registries and make_strategy). Link AMP::comm. What these are
// built on (comm/impl/) and the strategies' and transports' own headers are not installed: the public
// headers name those types only by declaration (fwd.hpp; docs/BUILDING.md, Layout).
#pragma once

#include <amp/comm/capabilities.hpp>
#include <amp/comm/combination.hpp>
#include <amp/comm/communicator.hpp>
#include <amp/comm/exchange_context.hpp>
#include <amp/comm/exchange_plan.hpp>
#include <amp/comm/fwd.hpp>
#include <amp/comm/memory_space.hpp>
#include <amp/comm/message_class.hpp>
#include <amp/comm/mpi_buffers.hpp>
#include <amp/comm/piece.hpp>
#include <amp/comm/stopwatch.hpp>
#include <amp/comm/strategy.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/traffic.hpp>
#include <amp/comm/transport_registry.hpp>
