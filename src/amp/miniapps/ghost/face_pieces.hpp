// SPDX-License-Identifier: BSD-3-Clause
// What amp-ghost exchanges, as pieces: x faces (rows of y at fixed x, strided), y faces (rows of x,
// contiguous), z faces (whole xy planes, contiguous); in x, y, z phases for 9- and 27-point stencils.
#pragma once

#include <amp/miniapps/ghost/decomposition.hpp>

#include <amp/comm/exchange_plan.hpp>

namespace amp::ghost {

// Pieces of the face of `block` on `side` (0 low, 1 high) of `axis`: the interior layer to send
// (ghost = false) or the ghost layer to receive into (ghost = true).
std::vector<comm::Piece> face_pieces(const kernels::BlockExtent& block, kernels::Stencil stencil, int axis, int side,
                                     bool ghost);

// Phase of an axis' exchange: x, y, z in sequence when the stencil reads edges, else all in phase 0.
int face_phase(kernels::Stencil stencil, int axis);

comm::ExchangePlan ghost_exchange_plan(const Decomposition& decomposition, kernels::Stencil stencil, int num_vars);

// A face propagation along `axis` (a CTH step's, GhostConfig::face_propagations_per_step): the links of
// that axis's faces only, as ghost_exchange_plan cuts them, in one phase.
comm::ExchangePlan axis_exchange_plan(const Decomposition& decomposition, kernels::Stencil stencil, int num_vars,
                                      int axis);

// The index, among ghost_exchange_plan's links, of the face on `side` of `axis`; -1 where that side has
// no neighbour. Its send pieces of an x face are in the order kernels::YzFaceCopies writes.
int face_link(const Decomposition& decomposition, int axis, int side);

}  // namespace amp::ghost
