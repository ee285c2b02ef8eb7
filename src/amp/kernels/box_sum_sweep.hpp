// SPDX-License-Identifier: BSD-3-Clause
// The 3D27PT sweep as a box sum taken one axis at a time, with the z-sums rolled from line to line:
// for each x-line (j, k), z(j') = in(k-1) + in(k) + in(k+1) is summed once per neighbouring row j' and
// kept while the sweep walks j, column = z(j-1) + z(j) + z(j+1), value = (column(i-1) + column(i) +
// column(i+1)) / 27. Each output line loads 3 input rows instead of 9, with 6 additions per cell
// instead of 10 (9 column sums then 3 columns) or 26. The order of the additions is fixed per cell,
// so every decomposition gives the same bits.
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/prefetch.hpp>
#include <amp/kernels/simd_pragmas.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/sweep_runs.hpp>
#include <amp/kernels/sweep_sums.hpp>
#include <amp/kernels/yz_face_copies.hpp>

namespace amp::kernels::detail {

// Lines of at least this many cells are swept one per pass, shorter ones two per pass. Two lines per pass
// read rows j+1 and j+2 of the next plane side by side, two address streams that each skip every other
// row: the hardware prefetchers do not follow them, and a block from memory swept so ran at 0.45-0.47
// Gcell/s where one line per pass, one sequential stream per plane, ran at 0.63-0.68 (one core, 4 x 128^3;
// docs/PERFORMANCE.md). On short lines, which come from the caches, a pass costs about as much as its work,
// and two lines per pass are the faster (16^3: 0.78 against 0.58 Gcell/s).
constexpr int kOneLinePassesFrom = 64;
inline int box_sum_lines_per_pass(const BlockExtent& e) { return e.nx >= kOneLinePassesFrom ? 1 : 2; }

// One call sweeps a run of consecutive x-lines (j) of plane k (sweep_runs.hpp), one or two lines per pass;
// the run's first two z-sums are its only repeated work. x is cut into chunks so that the z-sums and the
// columns stay in L1.
template <class MemorySpace>
struct BoxSumSweep {
  using value_type = SweepSums;
  static constexpr int kChunk = 256;

  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Grid<MemorySpace> out;
  BlockExtent extent;
  GlobalSides sides;
  bool outflow;                     // whether to add up the outflow through the global sides
  YzFaceCopies<MemorySpace> faces;  // where each line's first and last values also go
  SweepRuns runs;
  bool prefetch;       // whether to ask for rows ahead (worth_prefetching)
  int lines_per_pass;  // 1 or 2 (box_sum_lines_per_pass)

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
    double z[4][kChunk + 2];       // the z-sums of four consecutive rows, row r in z[(r - j_first + 1) % 4]
    double column[2][kChunk + 2];  // lines j and j+1
    const auto z_of_row = [&](int r) { return z[(r - j_first + 1) & 3]; };
    for (int first = 1; first <= extent.nx; first += kChunk) {
      const int last = first + kChunk - 1 < extent.nx ? first + kChunk - 1 : extent.nx;
      const int columns = last - first + 3;  // x = first-1 .. last+1
      const int width = last - first + 1;
      z_sum(first, columns, j_first - 1, k, z[0]);
      z_sum(first, columns, j_first, k, z[1]);
      for (int j = j_first; j <= j_last; j += lines_per_pass) {
        const double* south = z_of_row(j - 1);
        const double* centre = z_of_row(j);
        double* north = z_of_row(j + 1);
        double* north2 = z_of_row(j + 2);
        const bool two = lines_per_pass == 2 && j < j_last;
        if (prefetch) {
          for (int ahead = j + 1 + kPrefetchLinesAhead; ahead <= j + (two ? 2 : 1) + kPrefetchLinesAhead; ++ahead)
            if (ahead <= extent.ny + 1) prefetch_row(&in(first - 1, ahead, k + 1), columns);
        }
        const double* below = &in(first - 1, j + 1, k - 1);
        const double* here = &in(first - 1, j + 1, k);
        const double* above = &in(first - 1, j + 1, k + 1);
        double* o = &out(first, j, k);
        double line = 0.0;
        if (two) {
          const double* below2 = &in(first - 1, j + 2, k - 1);
          const double* here2 = &in(first - 1, j + 2, k);
          const double* above2 = &in(first - 1, j + 2, k + 1);
          AMP_SIMD
          for (int x = 0; x < columns; ++x) {
            const double z_north = below[x] + here[x] + above[x];
            const double z_north2 = below2[x] + here2[x] + above2[x];
            north[x] = z_north;
            north2[x] = z_north2;
            column[0][x] = south[x] + centre[x] + z_north;
            column[1][x] = centre[x] + z_north + z_north2;
          }
          double* o2 = &out(first, j + 1, k);
          AMP_SIMD_SUM(line)
          for (int x = 0; x < width; ++x) {
            const double v = (column[0][x] + column[0][x + 1] + column[0][x + 2]) * weight;
            const double v2 = (column[1][x] + column[1][x + 1] + column[1][x + 2]) * weight;
            o[x] = v;
            o2[x] = v2;
            line += v + v2;
          }
          if (first == 1 && faces.wants_low()) faces.write_first(j + 1, k, extent.ny, o2[0]);
          if (last == extent.nx && faces.wants_high()) faces.write_last(j + 1, k, extent.ny, o2[width - 1]);
        } else {
          AMP_SIMD
          for (int x = 0; x < columns; ++x) {
            const double z_north = below[x] + here[x] + above[x];
            north[x] = z_north;
            column[0][x] = south[x] + centre[x] + z_north;
          }
          AMP_SIMD_SUM(line)
          for (int x = 0; x < width; ++x) {
            const double v = (column[0][x] + column[0][x + 1] + column[0][x + 2]) * weight;
            o[x] = v;
            line += v;
          }
        }
        interior += line;
        if (first == 1 && faces.wants_low()) faces.write_first(j, k, extent.ny, o[0]);
        if (last == extent.nx && faces.wants_high()) faces.write_last(j, k, extent.ny, o[width - 1]);
      }
    }
    sums.interior += interior;
    if (!outflow) return;
    double outflow_sum = 0.0;
    for (int j = j_first; j <= j_last; ++j)
      outflow_sum += outflow_of_line<Stencil::ThreeD27Pt>(in, j, k, extent, sides);
    sums.outflow += outflow_sum;
  }
};

}  // namespace amp::kernels::detail
