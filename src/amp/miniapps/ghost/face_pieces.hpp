// SPDX-License-Identifier: BSD-3-Clause
// What amp-ghost exchanges, as pieces: x faces (rows of y at fixed x, strided), y faces (rows of x,
// contiguous), z faces (whole xy planes, contiguous); in x, y, z phases for 9- and 27-point stencils.
#pragma once

#include <amp/miniapps/ghost/decomposition.hpp>

#include <amp/comm/exchange_plan.hpp>
#include <amp/kernels/yz_ghost_sides.hpp>

namespace amp::ghost {

// Pieces of the face of `block` on `side` (0 low, 1 high) of `axis`: the interior layer to send
// (ghost = false) or the ghost layer to receive into (ghost = true). An x face's ghosts of the lines
// `aside` holds go into the side arrays after the grid (kernels/yz_ghost_sides.hpp), the rest into the
// grid: the same sizes as the peer's send pieces, rows wholly aside one contiguous run.
std::vector<comm::Piece> face_pieces(const kernels::BlockExtent& block, kernels::Stencil stencil, int axis, int side,
                                     bool ghost, const kernels::YzLinesAside& aside = {});

// The lines whose received yz ghosts amp-ghost sets aside: none unless it sweeps in place (which writes
// them into the grid plane by plane); where the stencil reads edges, not those a y or z neighbour is sent.
kernels::YzLinesAside yz_lines_aside(const Decomposition& decomposition, kernels::Stencil stencil);

// Phase of an axis' exchange: x, y, z in sequence when the stencil reads edges, else all in phase 0.
int face_phase(kernels::Stencil stencil, int axis);

// The step's exchange; its storage per variable: the grid, then the side arrays unless yz_lines_aside is empty.
comm::ExchangePlan ghost_exchange_plan(const Decomposition& decomposition, kernels::Stencil stencil, int num_vars);

// A face propagation along `axis` (a CTH step's, GhostConfig::face_propagations_per_step): the links of
// that axis's faces only, as ghost_exchange_plan cuts them, in one phase, into the grid (the sweep in place
// then writes the side arrays' copies over them: the same values, sent again from unchanged faces).
comm::ExchangePlan axis_exchange_plan(const Decomposition& decomposition, kernels::Stencil stencil, int num_vars,
                                      int axis);

// The index, among ghost_exchange_plan's links, of the face on `side` of `axis`; -1 where that side has
// no neighbour. Its send pieces of an x face are in the order kernels::YzFaceCopies writes.
int face_link(const Decomposition& decomposition, int axis, int side);

}  // namespace amp::ghost
