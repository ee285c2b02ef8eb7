// SPDX-License-Identifier: BSD-3-Clause
// How a sweep hands out its x-lines: one call of its functor sweeps a run of consecutive lines (j) of
// one plane (k), over a one-dimensional range. Whole planes where there are enough of them for every
// thread (each thread then reads and writes long runs of consecutive addresses, which the hardware
// prefetchers follow: docs/PERFORMANCE.md); runs of 16 lines otherwise (2-D blocks, devices), so that threads
// still share the block.
#pragma once

#include <amp/kernels/grid.hpp>

namespace amp::kernels::detail {

struct SweepRuns {
  int lines_per_run = 16;
  int runs_per_plane = 1;
  int nz = 1;

  SweepRuns(const BlockExtent& e, int concurrency) : nz(e.nz) {
    lines_per_run = e.nz >= 2 * concurrency ? e.ny : (e.ny < 16 ? e.ny : 16);
    runs_per_plane = (e.ny + lines_per_run - 1) / lines_per_run;
  }
  int count() const { return runs_per_plane * nz; }

  // The plane and the lines [j_first, j_last] of run `run`, for a block of ny lines per plane.
  KOKKOS_INLINE_FUNCTION void lines(int run, int ny, int& k, int& j_first, int& j_last) const {
    k = 1 + run / runs_per_plane;
    j_first = 1 + (run - (k - 1) * runs_per_plane) * lines_per_run;
    j_last = j_first + lines_per_run - 1 < ny ? j_first + lines_per_run - 1 : ny;
  }
};

}  // namespace amp::kernels::detail
