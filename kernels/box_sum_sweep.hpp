// The 3D27PT sweep as a box sum taken one axis at a time, with the z-sums rolled from line to line:
// for each x-line (j, k), z(j') = in(k-1) + in(k) + in(k+1) is summed once per neighbouring row j' and
// kept while the sweep walks j, column = z(j-1) + z(j) + z(j+1), value = (column(i-1) + column(i) +
// column(i+1)) / 27. Each output line loads 3 input rows instead of 9, with 6 additions per cell
// instead of 10 (9 column sums then 3 columns) or 26. The order of the additions is fixed per cell,
// so every decomposition gives the same bits.
#pragma once

#include "grid.hpp"
#include "outflow.hpp"
#include "prefetch.hpp"
#include "simd_pragmas.hpp"
#include "stencil_kind.hpp"
#include "sweep_runs.hpp"
#include "sweep_sums.hpp"
#include "yz_face_copies.hpp"

namespace amp::kernels::detail {

// One call sweeps a run of consecutive x-lines (j) of plane k (sweep_runs.hpp); the run's first two
// z-sums are its only repeated work. x is cut into chunks so the three z-sums and the column stay in L1.
template <class MemorySpace>
struct BoxSumSweep {
  using value_type = SweepSums;
  static constexpr int kChunk = 256;

  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Grid<MemorySpace> out;
  BlockExtent extent;
  GlobalSides sides;
  bool outflow;        // whether to add up the outflow through the global sides
  YzFaceCopies faces;  // where each line's first and last values also go
  SweepRuns runs;
  bool prefetch;  // whether to ask for rows ahead (worth_prefetching)

  // z[x] = in(first-1+x, j, k-1) + in(.., j, k) + in(.., j, k+1) for x < columns.
  KOKKOS_INLINE_FUNCTION void z_sum(int first, int columns, int j, int k, double* z) const {
    const double* below = &in(first - 1, j, k - 1);
    const double* here = &in(first - 1, j, k);
    const double* above = &in(first - 1, j, k + 1);
    AMP_SIMD
    for (int x = 0; x < columns; ++x) z[x] = below[x] + here[x] + above[x];
  }

  KOKKOS_INLINE_FUNCTION void operator()(int run, SweepSums& sums) const {
    constexpr double weight = 1.0 / 27;
    int k, j_first, j_last;
    runs.lines(run, extent.ny, k, j_first, j_last);
    double interior = 0.0;
    double z[3][kChunk + 2];
    double column[kChunk + 2];
    for (int first = 1; first <= extent.nx; first += kChunk) {
      const int last = first + kChunk - 1 < extent.nx ? first + kChunk - 1 : extent.nx;
      const int columns = last - first + 3;  // x = first-1 .. last+1
      z_sum(first, columns, j_first - 1, k, z[0]);
      z_sum(first, columns, j_first, k, z[1]);
      for (int j = j_first; j <= j_last; ++j) {
        const int r = j - j_first;
        const double* south = z[r % 3];
        const double* centre = z[(r + 1) % 3];
        double* north = z[(r + 2) % 3];
        if (prefetch && j + 1 + kPrefetchLinesAhead <= extent.ny + 1)
          prefetch_row(&in(first - 1, j + 1 + kPrefetchLinesAhead, k + 1), columns);
        // The next row's z-sum and the column in one pass (a pass over a short line costs as much again).
        const double* below = &in(first - 1, j + 1, k - 1);
        const double* here = &in(first - 1, j + 1, k);
        const double* above = &in(first - 1, j + 1, k + 1);
        AMP_SIMD
        for (int x = 0; x < columns; ++x) {
          const double z_north = below[x] + here[x] + above[x];
          north[x] = z_north;
          column[x] = south[x] + centre[x] + z_north;
        }
        double* o = &out(first, j, k);
        double line = 0.0;
        AMP_SIMD_SUM(line)
        for (int x = 0; x <= last - first; ++x) {
          const double v = (column[x] + column[x + 1] + column[x + 2]) * weight;
          o[x] = v;
          line += v;
        }
        interior += line;
        if (first == 1 && faces.low != nullptr) faces.write_first(j, k, extent.ny, o[0]);
        if (last == extent.nx && faces.high != nullptr) faces.write_last(j, k, extent.ny, o[last - first]);
      }
    }
    sums.interior += interior;
    if (!outflow) return;
    double outflow_sum = 0.0;
    for (int j = j_first; j <= j_last; ++j) outflow_sum += outflow_of_line<Stencil::ThreeD27Pt>(in, j, k, extent, sides);
    sums.outflow += outflow_sum;
  }
};

}  // namespace amp::kernels::detail
