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
#include "yz_face_copies.hpp"

namespace amp::kernels::detail {

// One call sweeps `lines_per_run` consecutive x-lines (j) of plane k; the run's first two z-sums are
// its only repeated work. x is cut into chunks so the three z-sums and the column stay in L1.
template <class MemorySpace>
struct BoxSumSweep {
  static constexpr int kChunk = 256;

  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Grid<MemorySpace> out;
  BlockExtent extent;
  GlobalSides sides;
  LineOutflow<MemorySpace> line_outflow;  // (j-1, k-1): each line's outflow; empty: not wanted
  YzFaceCopies faces;                     // where each line's first and last values also go
  int lines_per_run = 16;

  int runs() const { return (extent.ny + lines_per_run - 1) / lines_per_run; }

  // z[x] = in(first-1+x, j, k-1) + in(.., j, k) + in(.., j, k+1) for x < columns.
  KOKKOS_INLINE_FUNCTION void z_sum(int first, int columns, int j, int k, double* z) const {
    const double* below = &in(first - 1, j, k - 1);
    const double* here = &in(first - 1, j, k);
    const double* above = &in(first - 1, j, k + 1);
    AMP_SIMD
    for (int x = 0; x < columns; ++x) z[x] = below[x] + here[x] + above[x];
  }

  KOKKOS_INLINE_FUNCTION void operator()(int run, int k, double& sum) const {
    constexpr double weight = 1.0 / 27;
    const int j_first = 1 + run * lines_per_run;
    const int j_last = j_first + lines_per_run - 1 < extent.ny ? j_first + lines_per_run - 1 : extent.ny;
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
        if (j + 1 + kPrefetchLinesAhead <= extent.ny + 1)
          prefetch_row(&in(first - 1, j + 1 + kPrefetchLinesAhead, k + 1), columns);
        z_sum(first, columns, j + 1, k, north);
        AMP_SIMD
        for (int x = 0; x < columns; ++x) column[x] = south[x] + centre[x] + north[x];
        double* o = &out(first, j, k);
        double line = 0.0;
        AMP_SIMD_SUM(line)
        for (int x = 0; x <= last - first; ++x) {
          const double v = (column[x] + column[x + 1] + column[x + 2]) * weight;
          o[x] = v;
          line += v;
        }
        sum += line;
        if (first == 1 && faces.low != nullptr) faces.write_first(j, k, extent.ny, o[0]);
        if (last == extent.nx && faces.high != nullptr) faces.write_last(j, k, extent.ny, o[last - first]);
      }
    }
    if (line_outflow.data() == nullptr) return;
    for (int j = j_first; j <= j_last; ++j)
      line_outflow(j - 1, k - 1) = outflow_of_line<Stencil::ThreeD27Pt>(in, j, k, extent, sides);
  }
};

}  // namespace amp::kernels::detail
