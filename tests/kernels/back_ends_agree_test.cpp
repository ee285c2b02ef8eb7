// SPDX-License-Identifier: BSD-3-Clause
// Every deterministic kernel gives the same bits on every back end the Kokkos build has (Serial, OpenMP,
// Threads, CUDA, HIP, whichever are enabled: tests/common/back_ends.hpp): fields, face copies, fluxes
// and digests, run once on each space and compared with the first, bit for bit. Floating-point sums
// (interior sums, outflows) are left out: a parallel reduction may add in another order on another back end.
#include <amp/kernels/amr_cell_values.hpp>
#include <amp/kernels/amr_remap.hpp>
#include <amp/kernels/block_fields.hpp>
#include <amp/kernels/block_ghost_fill.hpp>
#include <amp/kernels/eulerian_update.hpp>
#include <amp/kernels/face_flux.hpp>
#include <amp/kernels/gather_scatter.hpp>
#include <amp/kernels/host_to_device.hpp>
#include <amp/kernels/stencil.hpp>
#include "../common/back_ends.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace k = amp::kernels;

// Each kernel's outputs as the bit patterns of their values, by kernel name.
using Bits = std::vector<std::uint64_t>;
struct BackEndOutputs {
  std::string space;
  std::map<std::string, Bits> by_kernel;
};

template <class View>
Bits bits_of(const View& view) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  Bits bits(host.span());
  std::memcpy(bits.data(), host.data(), bits.size() * sizeof(double));
  return bits;
}

template <class M>
Kokkos::View<double*, M> copy_in(const std::vector<double>& host, const char* label) {
  Kokkos::View<double*, M> view(std::string(label), host.size());
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(view, mirror);
  return view;
}

template <class Space>
void run_block_kernels(std::map<std::string, Bits>& out) {
  using M = typename Space::memory_space;
  const k::BlockExtent e{300, 37, 3};  // x-lines longer than a chunk, more than one run of lines per plane
  k::GlobalPlacement place;
  place.size[0] = 600, place.size[1] = 37, place.size[2] = 3;
  k::Grid<M> in("in", e.nx + 2, e.ny + 2, e.nz + 2);
  k::fill_random<Space>(in, e, place, 42, 1);
  out["fill_random"] = bits_of(in);
  out["interior_digest"] = {k::interior_digest<Space>(in, e, place, 1)};
  k::GlobalSides sides;
  sides.low[0] = sides.high[1] = true;
  for (const k::Stencil s : {k::Stencil::TwoD5Pt, k::Stencil::TwoD9Pt, k::Stencil::ThreeD7Pt, k::Stencil::ThreeD27Pt}) {
    k::Grid<M> next("next", e.nx + 2, e.ny + 2, e.nz + 2);
    Kokkos::View<double*, M> low("low", std::size_t{37} * 3), high("high", std::size_t{37} * 3);
    k::apply_stencil_with_outflow<Space>(s, in, next, e, sides, k::YzFaceCopies<M>{low, high});
    const std::string name = k::stencil_name(s);
    out["stencil " + name] = bits_of(next);
    Bits faces = bits_of(low);
    const Bits high_face = bits_of(high);
    faces.insert(faces.end(), high_face.begin(), high_face.end());
    out["yz faces " + name] = faces;
  }
  // The 3D7PT and 3D27PT sweeps in place on host back ends (one slab per thread, each overwriting planes
  // its neighbours read), into a second grid that starts as a copy elsewhere: the same bits.
  for (const k::Stencil s : {k::Stencil::ThreeD7Pt, k::Stencil::ThreeD27Pt}) {
    const k::BlockExtent slabbed{100, 6, 7};
    k::Grid<M> grid("grid", slabbed.nx + 2, slabbed.ny + 2, slabbed.nz + 2);
    k::fill_random<Space>(grid, slabbed, place, 43, 2);
    if constexpr (std::is_same_v<M, Kokkos::HostSpace>) {
      k::detail::sweep_in_place<Space>(s, grid, slabbed, sides, {}, {},
                                       k::InPlaceWorkspace<M>(slabbed, Space().concurrency()));
    } else {
      k::Grid<M> next("next", slabbed.nx + 2, slabbed.ny + 2, slabbed.nz + 2);
      Kokkos::deep_copy(next, grid);
      k::apply_stencil_with_outflow<Space>(s, grid, next, slabbed, sides);
      grid = next;
    }
    out["stencil " + k::stencil_name(s) + ", in place on hosts"] = bits_of(grid);
  }
}

template <class Space>
void run_gather_scatter_and_face_flux(std::map<std::string, Bits>& out) {
  using M = typename Space::memory_space;
  std::vector<double> q_host(64);
  for (std::size_t i = 0; i < q_host.size(); ++i) q_host[i] = 0.5 + static_cast<double>((i * 37) % 17) / 13.0;
  const auto q = copy_in<M>(q_host, "q");
  const auto index = k::copy_to<M>(std::vector<std::int64_t>{9, 0, 63, 4, 13, 2, 7, 40}, "index");
  Kokkos::View<double*, M> buffer("buffer", 8), target("target", 64);
  k::gather<Space>(q, index, 0, 8, buffer);
  k::scatter<Space>(buffer, index, 0, 8, target);
  out["gather"] = bits_of(buffer);
  out["scatter"] = bits_of(target);
  // A row of 64 cells along x; each cell's y and z faces lie on the global boundary.
  std::vector<std::int64_t> low, high, cell_faces(64 * 6);
  std::vector<int> axis;
  const auto add_face = [&](std::int64_t l, std::int64_t h, int a) {
    low.push_back(l), high.push_back(h), axis.push_back(a);
    return static_cast<std::int64_t>(axis.size()) - 1;
  };
  for (std::int64_t c = -1; c < 64; ++c) {
    const std::int64_t f = add_face(c, c + 1 < 64 ? c + 1 : -1, 0);
    if (c >= 0) cell_faces[6 * c + 1] = f;
    if (c + 1 < 64) cell_faces[6 * (c + 1)] = f;
  }
  for (std::int64_t c = 0; c < 64; ++c)
    for (int a = 1; a < 3; ++a) {
      cell_faces[6 * c + 2 * a] = add_face(-1, c, a);
      cell_faces[6 * c + 2 * a + 1] = add_face(c, -1, a);
    }
  const auto table = k::make_face_table<M>(low, high, axis, cell_faces);
  k::Transport t;
  t.velocity[0] = 0.3, t.velocity[1] = -0.2, t.velocity[2] = 0.1;
  Kokkos::View<double*, M> flux("flux", axis.size()), next("next", 64);
  k::compute_face_fluxes<Space>(q, table, t, flux);
  k::apply_face_fluxes<Space>(q, flux, table, next);
  out["face_fluxes"] = bits_of(flux);
  out["apply_face_fluxes"] = bits_of(next);
}

template <class Space>
void run_amr_kernels(std::map<std::string, Bits>& out) {
  using M = typename Space::memory_space;
  const k::AmrBlockShape shape{4};
  std::vector<k::AmrBlock> blocks_host(3);
  for (int b = 0; b < 3; ++b) {
    blocks_host[b].level = b % 2;
    blocks_host[b].position[0] = b;
    for (int f = 0; f < 6; ++f) blocks_host[b].face[f] = (b + f) % 4;  // every FaceNeighbour kind
  }
  const auto blocks = k::copy_to<M>(blocks_host, "blocks");
  k::AmrValuesIn<M> current("current", 3 * shape.storage()), next("next", 3 * shape.storage());
  k::fill_amr_initial_values<Space>(current, blocks, shape, 7, 0);
  out["fill_amr_initial_values"] = bits_of(current);
  out["amr_digest"] = {k::amr_digest<Space>(current, blocks, shape, 0)};
  // Ghosts of block 2 from block 0's cells: a copy, a prolongation and a restriction, on three faces.
  const std::int64_t sx = shape.stride(0), sy = shape.stride(1), sz = shape.stride(2), slot = shape.storage();
  const std::int64_t cell0 = sx + sy + sz, ghosts2 = 2 * slot;
  std::vector<k::GhostFillTask> fills(3);
  fills[0] = {static_cast<int>(k::FaceFill::Copy), 4, cell0, sy, sz, ghosts2 + sy + sz, sy, sz};
  fills[1] = {static_cast<int>(k::FaceFill::Prolong), 4, cell0, sy, sz, ghosts2 + 5 * sx + sy + sz, sy, sz};
  fills[2] = {static_cast<int>(k::FaceFill::Restrict), 2, cell0, sx, sz, ghosts2 + sx + sz, sx, sz};
  k::fill_ghost_faces<Space>(current, k::copy_to<M>(fills, "fills"), shape.n);
  out["fill_ghost_faces"] = bits_of(current);
  k::eulerian_update<Space>(current, next, blocks, shape, k::EulerianParams{}, 0.05);
  out["eulerian_update"] = bits_of(next);
  // New blocks from block 0: kept, the refined octant (1, 0, 1), and eight children averaged.
  std::vector<k::RemapTask> tasks(3);
  for (int b = 0; b < 3; ++b) {
    tasks[b].kind = b;
    for (int s = 0; s < 8; ++s) tasks[b].source_base[s] = cell0, tasks[b].source_j[s] = sy, tasks[b].source_k[s] = sz;
  }
  tasks[1].octant[0] = tasks[1].octant[2] = 1;
  k::AmrValuesIn<M> remapped("remapped", 3 * shape.storage());
  k::remap_amr_blocks<Space>(current, remapped, k::copy_to<M>(tasks, "tasks"), shape);
  out["remap_amr_blocks"] = bits_of(remapped);
}

template <class Space>
BackEndOutputs outputs_on() {
  BackEndOutputs outputs{Space::name(), {}};
  run_block_kernels<Space>(outputs.by_kernel);
  run_gather_scatter_and_face_flux<Space>(outputs.by_kernel);
  run_amr_kernels<Space>(outputs.by_kernel);
  Kokkos::fence();
  return outputs;
}

// In the order of the list (cmake/AmpTesting.cmake's amp_back_end_spaces).
template <class... Spaces>
std::vector<BackEndOutputs> outputs_on_each(amp::test::BackEnds<Spaces...>) {
  return {outputs_on<Spaces>()...};
}

TEST(KernelsOnEveryBackEnd, GiveTheSameBits) {
  const auto all = outputs_on_each(amp::test::EveryBackEnd{});
  ASSERT_FALSE(all.empty());
  const BackEndOutputs& first = all.front();
  EXPECT_EQ(first.by_kernel.size(), 21u);
  for (const auto& [kernel, bits] : first.by_kernel) EXPECT_FALSE(bits.empty()) << kernel;
  for (std::size_t s = 1; s < all.size(); ++s)
    for (const auto& [kernel, bits] : first.by_kernel)
      EXPECT_TRUE(all[s].by_kernel.at(kernel) == bits)
          << kernel << ": " << all[s].space << " differs from " << first.space;
  std::printf("%zu kernels' outputs compared on %zu back ends\n", first.by_kernel.size(), all.size());
}

}  // namespace
