// SPDX-License-Identifier: BSD-3-Clause
// compute_face_fluxes and apply_face_fluxes against hand-computed cases on tiny boxes of cells:
// upwind direction and diffusion sign per face, the zero outside, the returned outflow, and the update.
#include "../common/test_execution_space.hpp"

#include <amp/kernels/face_flux.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace {

using amp::kernels::Transport;

// The faces of an nx x ny x nz box of cells (cell x + nx*(y + ny*z)), -1 outside, with each cell's six
// faces in the order -x,+x,-y,+y,-z,+z, and a lookup of a face by (low cell, high cell, axis).
struct BoxFaces {
  int nx, ny, nz;
  std::vector<std::int64_t> low, high, cell_faces;
  std::vector<int> axis;
  std::map<std::tuple<std::int64_t, std::int64_t, int>, std::int64_t> index;

  BoxFaces(int x_cells, int y_cells, int z_cells) : nx(x_cells), ny(y_cells), nz(z_cells) {
    cell_faces.assign(static_cast<std::size_t>(6 * cells()), -1);
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x)
          for (int a = 0; a < 3; ++a) {
            const int at[3] = {x, y, z};
            int below[3] = {x, y, z};
            below[a] -= 1;
            // Every cell owns its low face; the last cell on a line also owns its high (outside) face.
            add_face(inside(below) ? cell(below) : -1, cell(at), a);
            int above[3] = {x, y, z};
            above[a] += 1;
            if (!inside(above)) add_face(cell(at), -1, a);
          }
  }
  std::int64_t cells() const { return std::int64_t{nx} * ny * nz; }
  std::int64_t cell(const int at[3]) const { return at[0] + std::int64_t{nx} * (at[1] + std::int64_t{ny} * at[2]); }
  std::int64_t cell(int x, int y, int z) const {
    const int at[3] = {x, y, z};
    return cell(at);
  }
  bool inside(const int at[3]) const {
    return at[0] >= 0 && at[0] < nx && at[1] >= 0 && at[1] < ny && at[2] >= 0 && at[2] < nz;
  }
  std::int64_t face(std::int64_t l, std::int64_t h, int a) const { return index.at({l, h, a}); }
  amp::kernels::FaceTable<amp::test::MemorySpace> table() const {
    return amp::kernels::make_face_table<amp::test::MemorySpace>(low, high, axis, cell_faces);
  }

 private:
  void add_face(std::int64_t l, std::int64_t h, int a) {
    const auto f = static_cast<std::int64_t>(axis.size());
    low.push_back(l);
    high.push_back(h);
    axis.push_back(a);
    index[{l, h, a}] = f;
    if (l >= 0) cell_faces[static_cast<std::size_t>(6 * l + 2 * a + 1)] = f;  // the low cell's high face
    if (h >= 0) cell_faces[static_cast<std::size_t>(6 * h + 2 * a)] = f;      // the high cell's low face
  }
};

struct StepResult {
  std::vector<double> flux, next;
  double outflow, sum;
};

StepResult step(const BoxFaces& box, const std::vector<double>& q_host, const Transport& t) {
  const auto table = box.table();
  Kokkos::View<double*, amp::test::MemorySpace> q("q", q_host.size()), flux("flux", box.axis.size()),
      next("next", q_host.size());
  auto q_mirror = Kokkos::create_mirror_view(q);
  for (std::size_t c = 0; c < q_host.size(); ++c) q_mirror(c) = q_host[c];
  Kokkos::deep_copy(q, q_mirror);
  StepResult r;
  r.outflow = amp::kernels::compute_face_fluxes<amp::test::ExecutionSpace>(q, table, t, flux);
  r.sum = amp::kernels::apply_face_fluxes<amp::test::ExecutionSpace>(q, flux, table, next);
  const auto flux_mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flux);
  const auto next_mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), next);
  r.flux.assign(flux_mirror.data(), flux_mirror.data() + flux_mirror.extent(0));
  r.next.assign(next_mirror.data(), next_mirror.data() + next_mirror.extent(0));
  return r;
}

Transport transport(double diffusion, double u, double v, double w) {
  Transport t;
  t.diffusion = diffusion;
  t.velocity[0] = u;
  t.velocity[1] = v;
  t.velocity[2] = w;
  return t;
}

// Two cells along x, one face between them (low 0, high 1), diffusion 0.1. The flux moves low -> high:
//   q = (1, 0), u = +0.3: upwind is the low cell: 0.3 * 1 + 0.1 * (1 - 0) = 0.4
//   q = (1, 0), u = -0.3: upwind is the high cell (0): diffusion only, 0.1
//   q = (0, 1), u = +0.3: upwind is the low cell (0): diffusion only, -0.1
//   q = (0, 1), u = -0.3: -0.3 * 1 + 0.1 * (0 - 1) = -0.4
// and a velocity along y does not advect across an x face: diffusion only.
TEST(FaceFlux, OneFaceTakesTheUpwindCellAndDiffusesFromHighToLowValue) {
  const BoxFaces pair(2, 1, 1);
  const std::int64_t between = pair.face(0, 1, 0);
  struct Case {
    std::vector<double> q;
    Transport t;
    double flux;
  };
  const Case cases[] = {{{1.0, 0.0}, transport(0.1, 0.3, 0, 0), 0.4},  {{1.0, 0.0}, transport(0.1, -0.3, 0, 0), 0.1},
                        {{0.0, 1.0}, transport(0.1, 0.3, 0, 0), -0.1}, {{0.0, 1.0}, transport(0.1, -0.3, 0, 0), -0.4},
                        {{1.0, 0.0}, transport(0.1, 0, 0.3, 0), 0.1},  {{1.0, 0.0}, transport(0.1, 0, 0, -0.3), 0.1}};
  for (const Case& c : cases) {
    const auto r = step(pair, c.q, c.t);
    EXPECT_NEAR(r.flux[static_cast<std::size_t>(between)], c.flux, 1e-15)
        << "q = (" << c.q[0] << ", " << c.q[1] << "), velocity " << c.t.velocity[0] << "," << c.t.velocity[1] << ","
        << c.t.velocity[2];
  }
}

// One cell of value 1 alone in the box, diffusion 0.05, velocity (0.3, -0.2, 0.1); outside is zero.
// Fluxes low -> high: -x face -0.05 (diffusion out to the low side), +x 0.3 + 0.05 = 0.35, -y -0.2 - 0.05 =
// -0.25 (velocity -0.2 carries it to the low side), +y 0.05, -z -0.05, +z 0.1 + 0.05 = 0.15. Out through the
// high faces 0.35 + 0.05 + 0.15, through the low ones 0.05 + 0.25 + 0.05: outflow 0.9, the cell keeps 0.1.
TEST(FaceFlux, OutsideIsZeroAndWhatLeavesThroughEitherSideIsOutflow) {
  const BoxFaces one(1, 1, 1);
  const auto r = step(one, {1.0}, transport(0.05, 0.3, -0.2, 0.1));
  const double expected_flux[6] = {-0.05, 0.35, -0.25, 0.05, -0.05, 0.15};  // -x,+x,-y,+y,-z,+z
  for (int side = 0; side < 6; ++side) {
    const int a = side / 2;
    const std::int64_t f = side % 2 == 0 ? one.face(-1, 0, a) : one.face(0, -1, a);
    EXPECT_NEAR(r.flux[static_cast<std::size_t>(f)], expected_flux[side], 1e-15) << "face " << side;
  }
  EXPECT_NEAR(r.outflow, 0.9, 1e-15);
  EXPECT_NEAR(r.next[0], 0.1, 1e-15);
  EXPECT_NEAR(r.sum, 0.1, 1e-15);
}

// A negative value diffuses in from the zero outside: every face carries 0.05 towards the cell, which is
// inflow and counts negative: outflow -0.3, and the cell goes from -1 to -0.7 (sum before = after + outflow).
TEST(FaceFlux, InflowFromOutsideCountsNegative) {
  const BoxFaces one(1, 1, 1);
  const auto r = step(one, {-1.0}, transport(0.05, 0, 0, 0));
  EXPECT_NEAR(r.outflow, -0.3, 1e-15);
  EXPECT_NEAR(r.next[0], -0.7, 1e-15);
  EXPECT_NEAR(r.sum + r.outflow, -1.0, 1e-15);
}

// The middle cell of a 3x3x3 box holds 1, diffusion 0.05, velocity (0.3, -0.2, 0.1): it keeps
// 1 - (0.3 + 0.2 + 0.1 + 6 * 0.05) = 0.1; downwind +x gets 0.35, -y 0.25, +z 0.15; upwind 0.05 each.
TEST(FaceFlux, SingleCellMovesDownwindAndDiffusesToAllSixNeighbours) {
  const BoxFaces box(3, 3, 3);
  std::vector<double> q(static_cast<std::size_t>(box.cells()), 0.0);
  q[static_cast<std::size_t>(box.cell(1, 1, 1))] = 1.0;
  const auto r = step(box, q, transport(0.05, 0.3, -0.2, 0.1));
  std::vector<double> expected(q.size(), 0.0);
  auto at = [&](int x, int y, int z) -> double& { return expected[static_cast<std::size_t>(box.cell(x, y, z))]; };
  at(1, 1, 1) = 0.1;
  at(2, 1, 1) = 0.35;
  at(0, 1, 1) = 0.05;
  at(1, 0, 1) = 0.25;
  at(1, 2, 1) = 0.05;
  at(1, 1, 2) = 0.15;
  at(1, 1, 0) = 0.05;
  for (std::size_t c = 0; c < q.size(); ++c) EXPECT_NEAR(r.next[c], expected[c], 1e-15) << "cell " << c;
  EXPECT_NEAR(r.sum, 1.0, 1e-15);
  EXPECT_EQ(r.outflow, 0.0);
}

// A constant 0.6 in a 3x3x3 box: every inner face carries exactly u * 0.6 (no diffusion), so the middle
// cell, whose six faces are all inner, keeps 0.6 (to the rounding of adding and then taking u * 0.6).
TEST(FaceFlux, ConstantFieldGivesZeroNetFluxAwayFromTheBoundary) {
  const BoxFaces box(3, 3, 3);
  const std::vector<double> q(static_cast<std::size_t>(box.cells()), 0.6);
  const Transport t = transport(0.1, 0.3, -0.2, 0.1);
  const auto r = step(box, q, t);
  for (std::size_t f = 0; f < box.axis.size(); ++f)
    if (box.low[f] >= 0 && box.high[f] >= 0) {
      EXPECT_EQ(r.flux[f], t.velocity[box.axis[f]] * 0.6) << "face " << f;
    }
  EXPECT_NEAR(r.next[static_cast<std::size_t>(box.cell(1, 1, 1))], 0.6, 1e-15);
  double before = 0.0;
  for (const double v : q) before += v;
  EXPECT_NEAR(r.sum + r.outflow, before, 1e-13);
}

}  // namespace
