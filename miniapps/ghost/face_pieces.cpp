// Face geometry. Ranges: x faces cover y 1..ny; y faces cover x 0..nx+1 when edges are needed (x ghosts
// came in phase 0), else 1..nx; z faces always cover x 0..nx+1 so that each xy plane is one contiguous run.
#include "face_pieces.hpp"

namespace amp::ghost {

using comm::Piece;
using kernels::BlockExtent;
using kernels::Stencil;

int face_phase(Stencil stencil, int axis) { return kernels::stencil_reads_edges(stencil) ? axis : 0; }

std::vector<Piece> face_pieces(const BlockExtent& b, Stencil stencil, int axis, int side, bool ghost) {
  const bool edges = kernels::stencil_reads_edges(stencil);
  const int layer_low = ghost ? 0 : 1;
  const int n[3] = {b.nx, b.ny, b.nz};
  const int layer = side == 0 ? layer_low : n[axis] + 1 - layer_low;
  const std::int64_t row = b.nx + 2;
  std::vector<Piece> pieces;
  if (axis == 0) {  // one strided row of ny values per z
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

comm::ExchangePlan ghost_exchange_plan(const Decomposition& d, Stencil stencil, int num_vars) {
  comm::ExchangePlan plan;
  plan.num_vars = num_vars;
  const int axes = kernels::stencil_is_3d(stencil) ? 3 : 2;
  plan.num_phases = kernels::stencil_reads_edges(stencil) ? axes : 1;
  for (int axis = 0; axis < axes; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const int peer = d.neighbour[axis][side];
      if (peer < 0) continue;  // (face_link counts the same way)
      comm::Link link;
      link.peer = peer;
      link.phase = face_phase(stencil, axis);
      link.send = face_pieces(d.block, stencil, axis, side, /*ghost=*/false);
      link.recv = face_pieces(d.block, stencil, axis, side, /*ghost=*/true);
      plan.links.push_back(std::move(link));
    }
  }
  return plan;
}

int face_link(const Decomposition& d, int axis, int side) {
  if (d.neighbour[axis][side] < 0) return -1;
  int link = 0;
  for (int a = 0; a <= axis; ++a)
    for (int s = 0; s < 2 && (a < axis || s < side); ++s) link += d.neighbour[a][s] >= 0 ? 1 : 0;
  return link;
}

}  // namespace amp::ghost
