// SPDX-License-Identifier: BSD-3-Clause
// amp-sage's exchange plan: one link per neighbour rank; send pieces are the maximal runs of
// consecutive owned cells in the send list, receive pieces the matching runs of ghost slots.
#pragma once

#include <amp/miniapps/sage/local_mesh.hpp>

#include <amp/comm/exchange_plan.hpp>

namespace amp::sage {

comm::ExchangePlan sage_exchange_plan(const LocalMesh& mesh, int num_vars);

// Receive runs: slots split where the owner's curve positions stop being consecutive, so they match
// the owner's send runs one to one.
std::vector<std::array<std::int64_t, 2>> receive_runs(const LocalMesh& mesh, const NeighbourRank& neighbour);

}  // namespace amp::sage
