// SPDX-License-Identifier: BSD-3-Clause
// Face geometry. Ranges: x faces cover y 1..ny; y faces cover x 0..nx+1 when edges are needed (x ghosts
// came in phase 0), else 1..nx; z faces always cover x 0..nx+1 so that each xy plane is one contiguous run.
// Received x faces go into side arrays after the grid where amp-ghost sweeps in place (yz_ghost_sides.hpp).
#include <amp/miniapps/ghost/face_pieces.hpp>

#include <amp/kernels/stencil.hpp>
#include <amp/kernels/yz_ghost_sides.hpp>

#include <array>

namespace amp::ghost {

using comm::Piece;
using kernels::BlockExtent;
using kernels::Stencil;

int face_phase(Stencil stencil, int axis) { return kernels::stencil_reads_edges(stencil) ? axis : 0; }

namespace {

// The ghost row of x face `side` at plane k: into the side array where `aside` holds the line.
Piece yz_ghost_row(const BlockExtent& b, const kernels::YzLinesAside& aside, int side, int k) {
  const int x = side == 0 ? 0 : b.nx + 1;
  const std::int64_t row = kernels::yz_ghost_side_offset(b, side) + kernels::yz_face_element(1, k, b.ny);
  std::vector<std::int64_t> elements;
  int in_side = 0;
  for (int j = 1; j <= b.ny; ++j) {
    const bool waits = aside.holds(j, k);
    in_side += waits;
    elements.push_back(waits ? row + (j - 1) : b.index(x, j, k));
  }
  if (in_side == b.ny) return Piece::strided(row, b.ny, 1);
  if (in_side == 0) return Piece::strided(b.index(x, 1, k), b.ny, b.nx + 2);
  return Piece::index_list(std::move(elements));
}

}  // namespace

kernels::YzLinesAside yz_lines_aside(const Decomposition& d, Stencil stencil) {
  if (!kernels::sweeps_in_place(stencil, d.block)) return {};
  const bool edges = kernels::stencil_reads_edges(stencil);
  const auto sent_on = [&](int axis, int side) { return edges && d.neighbour[axis][side] >= 0; };
  return {sent_on(1, 0) ? 2 : 1, sent_on(1, 1) ? d.block.ny - 1 : d.block.ny, sent_on(2, 0) ? 2 : 1,
          sent_on(2, 1) ? d.block.nz - 1 : d.block.nz};
}

std::vector<Piece> face_pieces(const BlockExtent& b, Stencil stencil, int axis, int side, bool ghost,
                               const kernels::YzLinesAside& aside) {
  const bool edges = kernels::stencil_reads_edges(stencil);
  const int layer_low = ghost ? 0 : 1;
  const int n[3] = {b.nx, b.ny, b.nz};
  const int layer = side == 0 ? layer_low : n[axis] + 1 - layer_low;
  const std::int64_t row = b.nx + 2;
  std::vector<Piece> pieces;
  if (axis == 0 && ghost && !aside.empty()) {  // one row of ny values per z, in the side array where it can
    for (int k = 1; k <= b.nz; ++k) pieces.push_back(yz_ghost_row(b, aside, side, k));
  } else if (axis == 0) {  // one strided row of ny values per z
    for (int k = 1; k <= b.nz; ++k) pieces.push_back(Piece::strided(b.index(layer, 1, k), b.ny, row));
  } else if (axis == 1) {  // one contiguous row of x values per z
    const int i0 = edges ? 0 : 1;
    const int count = edges ? b.nx + 2 : b.nx;
    for (int k = 1; k <= b.nz; ++k) pieces.push_back(Piece::strided(b.index(i0, layer, k), count, 1));
  } else {  // the xy plane, full x rows
    const int j0 = edges ? 0 : 1;
    const int rows = edges ? b.ny + 2 : b.ny;
    pieces.push_back(Piece::strided(b.index(0, j0, layer), row * rows, 1));
  }
  return pieces;
}

namespace {

// The faces on which this rank has a neighbour, as (axis, side), in the order of the plan's links.
std::vector<std::array<int, 2>> linked_faces(const Decomposition& d, int axes) {
  std::vector<std::array<int, 2>> faces;
  for (int axis = 0; axis < axes; ++axis)
    for (int side = 0; side < 2; ++side)
      if (d.neighbour[axis][side] >= 0) faces.push_back({axis, side});
  return faces;
}

}  // namespace

comm::ExchangePlan ghost_exchange_plan(const Decomposition& d, Stencil stencil, int num_vars) {
  comm::ExchangePlan plan;
  plan.num_vars = num_vars;
  const int axes = kernels::stencil_is_3d(stencil) ? 3 : 2;
  plan.num_phases = kernels::stencil_reads_edges(stencil) ? axes : 1;
  const kernels::YzLinesAside aside = yz_lines_aside(d, stencil);
  for (const auto& [axis, side] : linked_faces(d, axes)) {
    comm::Link link;
    link.peer = d.neighbour[axis][side];
    link.phase = face_phase(stencil, axis);
    link.send = face_pieces(d.block, stencil, axis, side, /*ghost=*/false);
    link.recv = face_pieces(d.block, stencil, axis, side, /*ghost=*/true, aside);
    plan.links.push_back(std::move(link));
  }
  return plan;
}

comm::ExchangePlan axis_exchange_plan(const Decomposition& d, Stencil stencil, int num_vars, int axis) {
  comm::ExchangePlan plan;
  plan.num_vars = num_vars;
  plan.num_phases = 1;
  for (int side = 0; side < 2; ++side) {
    if (d.neighbour[axis][side] < 0) continue;
    comm::Link link;
    link.peer = d.neighbour[axis][side];
    link.phase = 0;
    link.send = face_pieces(d.block, stencil, axis, side, /*ghost=*/false);
    link.recv = face_pieces(d.block, stencil, axis, side, /*ghost=*/true);
    plan.links.push_back(std::move(link));
  }
  return plan;
}

int face_link(const Decomposition& d, int axis, int side) {
  const auto faces = linked_faces(d, axis + 1);  // the links of later axes come after this one
  for (std::size_t l = 0; l < faces.size(); ++l)
    if (faces[l][0] == axis && faces[l][1] == side) return static_cast<int>(l);
  return -1;
}

}  // namespace amp::ghost
