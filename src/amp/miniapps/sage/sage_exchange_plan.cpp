// SPDX-License-Identifier: BSD-3-Clause
// Runs become strided pieces of stride 1: SVCP sends each straight from the variable's array and
// receives it straight into the ghost slots; BSPMA and SVAF gather them into (variable, cell) buffers.
#include <amp/miniapps/sage/sage_exchange_plan.hpp>

namespace amp::sage {

std::vector<std::array<std::int64_t, 2>> receive_runs(const LocalMesh& mesh, const NeighbourRank& neighbour) {
  std::vector<std::array<std::int64_t, 2>> runs;
  std::int64_t previous_position = -2;
  for (std::int64_t slot : neighbour.recv_slots) {
    const std::int64_t position = mesh.curve_position[slot];
    if (!runs.empty() && position == previous_position + 1 && runs.back()[0] + runs.back()[1] == slot)
      ++runs.back()[1];
    else
      runs.push_back({slot, 1});
    previous_position = position;
  }
  return runs;
}

comm::ExchangePlan sage_exchange_plan(const LocalMesh& mesh, int num_vars) {
  comm::ExchangePlan plan;
  plan.num_vars = num_vars;
  plan.num_phases = 1;
  for (const NeighbourRank& n : mesh.neighbours) {
    comm::Link link;
    link.peer = n.rank;
    for (const auto& run : consecutive_runs(n.send_cells)) link.send.push_back(comm::Piece::strided(run[0], run[1], 1));
    for (const auto& run : receive_runs(mesh, n)) link.recv.push_back(comm::Piece::strided(run[0], run[1], 1));
    plan.links.push_back(std::move(link));
  }
  return plan;
}

}  // namespace amp::sage
