// SPDX-License-Identifier: BSD-3-Clause
// amp-sage's set-up checked against brute force on small meshes: curve keys, the partition, the
// per-rank index lists and ghosts, the exchange plan's matching pieces, and the face lists.
#include <amp/miniapps/sage/cell_partition.hpp>
#include <amp/miniapps/sage/face_lists.hpp>
#include <amp/miniapps/sage/local_mesh.hpp>
#include <amp/miniapps/sage/sage_config.hpp>
#include <amp/miniapps/sage/sage_exchange_plan.hpp>
#include <amp/miniapps/sage/space_filling_curve.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace amp::sage {
namespace {

using Box = std::array<std::int64_t, 3>;

std::int64_t manhattan(const GlobalMesh& mesh, std::int64_t a, std::int64_t b) {
  const auto ca = mesh.coordinates(a), cb = mesh.coordinates(b);
  return std::llabs(ca[0] - cb[0]) + std::llabs(ca[1] - cb[1]) + std::llabs(ca[2] - cb[2]);
}

TEST(SpaceFillingCurve, HilbertVisitsEveryCellOfACubeOnceMovingOneFaceAtATime) {
  for (int bits = 1; bits <= 4; ++bits) {
    const std::int64_t n = std::int64_t{1} << bits;
    const GlobalMesh mesh{{n, n, n}};
    std::map<std::uint64_t, std::int64_t> by_key;
    for (std::int64_t id = 0; id < mesh.size(); ++id) {
      const auto c = mesh.coordinates(id);
      by_key[hilbert_key(c[0], c[1], c[2], bits)] = id;
    }
    ASSERT_EQ(static_cast<std::int64_t>(by_key.size()), mesh.size());
    EXPECT_EQ(by_key.begin()->first, 0u);
    EXPECT_EQ(by_key.rbegin()->first, static_cast<std::uint64_t>(mesh.size() - 1));
    std::int64_t previous = -1;
    for (const auto& [key, id] : by_key) {
      if (previous >= 0) {
        EXPECT_EQ(manhattan(mesh, previous, id), 1) << "bits " << bits << " key " << key;
      }
      previous = id;
    }
  }
}

TEST(SpaceFillingCurve, MortonInterleavesBitsWithXLowest) {
  EXPECT_EQ(morton_key(1, 0, 0, 2), 1u);
  EXPECT_EQ(morton_key(0, 1, 0, 2), 2u);
  EXPECT_EQ(morton_key(0, 0, 1, 2), 4u);
  EXPECT_EQ(morton_key(2, 0, 0, 2), 8u);
  EXPECT_EQ(morton_key(3, 3, 3, 2), 63u);
}

TEST(SpaceFillingCurve, BitsCoverTheLargestAxis) {
  EXPECT_EQ(curve_bits({1, 1, 1}), 1);
  EXPECT_EQ(curve_bits({2, 1, 1}), 1);
  EXPECT_EQ(curve_bits({3, 1, 1}), 2);
  EXPECT_EQ(curve_bits({5, 17, 4}), 5);
}

TEST(Config, WeakScalingFactorsMultiplyToTheRankCountAndAreBalanced) {
  for (int ranks = 1; ranks <= 64; ++ranks) {
    const auto f = balanced_factors(ranks);
    EXPECT_EQ(f[0] * f[1] * f[2], ranks);
    EXPECT_GE(f[0], f[1]);
    EXPECT_GE(f[1], f[2]);
  }
  EXPECT_EQ(balanced_factors(8), (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(balanced_factors(12), (std::array<int, 3>{3, 2, 2}));
}

// Meshes and rank counts small enough for O(cells^2) brute force; odd shapes and uneven chunks.
const std::vector<std::tuple<Box, Partition, int>> kCases = {
    {{4, 4, 4}, Partition::Hilbert, 3},  {{5, 3, 4}, Partition::Hilbert, 4}, {{7, 2, 3}, Partition::Hilbert, 5},
    {{4, 4, 4}, Partition::Morton, 3},   {{6, 5, 1}, Partition::Morton, 4},  {{4, 3, 5}, Partition::Slab, 3},
    {{3, 3, 3}, Partition::Hilbert, 27}, {{8, 6, 5}, Partition::Hilbert, 3}, {{8, 6, 5}, Partition::Slab, 2},
};

TEST(CellPartition, ChunksAreContiguousBalancedAndCoverEveryCellOnce) {
  for (const auto& [box, curve, ranks] : kCases) {
    const CellPartition partition(GlobalMesh{box}, curve, ranks);
    const std::int64_t n = partition.mesh().size();
    std::vector<int> seen(n, 0);
    for (std::int64_t p = 0; p < n; ++p) {
      ++seen[partition.cell_at(p)];
      EXPECT_EQ(partition.position_of(partition.cell_at(p)), p);
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
    for (int r = 0; r < ranks; ++r) {
      const std::int64_t size = partition.chunk_begin(r + 1) - partition.chunk_begin(r);
      EXPECT_TRUE(size == n / ranks || size == n / ranks + 1);
      for (std::int64_t p = partition.chunk_begin(r); p < partition.chunk_begin(r + 1); ++p)
        EXPECT_EQ(partition.owner_of_position(p), r);
    }
  }
}

// The order the partition must give: every mesh cell sorted by its curve key (slab: by id).
std::vector<std::int64_t> sorted_by_key(const GlobalMesh& mesh, Partition curve) {
  const int bits = curve_bits(mesh.cells);
  std::vector<std::pair<std::uint64_t, std::int64_t>> keyed;
  for (std::int64_t id = 0; id < mesh.size(); ++id) {
    const auto c = mesh.coordinates(id);
    const auto x = static_cast<std::uint32_t>(c[0]), y = static_cast<std::uint32_t>(c[1]),
               z = static_cast<std::uint32_t>(c[2]);
    const std::uint64_t key = curve == Partition::Hilbert  ? hilbert_key(x, y, z, bits)
                              : curve == Partition::Morton ? morton_key(x, y, z, bits)
                                                           : static_cast<std::uint64_t>(id);
    keyed.emplace_back(key, id);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::int64_t> order;
  for (const auto& entry : keyed) order.push_back(entry.second);
  return order;
}

TEST(CellPartition, OctreeDescentEqualsSortingEveryCell) {
  const std::vector<Box> boxes = {{1, 1, 1}, {2, 2, 2},  {4, 4, 4},  {5, 3, 4}, {7, 2, 3},    {9, 1, 1},
                                  {1, 6, 1}, {1, 1, 13}, {16, 5, 3}, {8, 8, 9}, {10, 11, 12}, {3, 17, 2}};
  for (const Box& box : boxes) {
    for (Partition curve : {Partition::Hilbert, Partition::Morton, Partition::Slab}) {
      const GlobalMesh mesh{box};
      const CellPartition partition(mesh, curve, 3);
      const std::vector<std::int64_t> expected = sorted_by_key(mesh, curve);
      const std::int64_t n = mesh.size();
      EXPECT_EQ(partition.cells_between(0, n), expected)
          << partition_name(curve) << " " << box[0] << "x" << box[1] << "x" << box[2];
      for (std::int64_t p = 0; p < n; ++p) {
        ASSERT_EQ(partition.cell_at(p), expected[p]);
        ASSERT_EQ(partition.position_of(expected[p]), p);
      }
      // Any sub-range, as one rank's chunk asks for it.
      for (std::int64_t b = 0; b <= n; b += 1 + n / 7)
        for (std::int64_t e = b; e <= n; e += 1 + n / 5)
          EXPECT_EQ(partition.cells_between(b, e),
                    std::vector<std::int64_t>(expected.begin() + b, expected.begin() + e));
    }
  }
}

// The cells of `from` that share a face with some cell of `to`, in curve order, by comparing every pair.
std::vector<std::int64_t> brute_force_boundary(const CellPartition& partition, int from, int to) {
  const GlobalMesh& mesh = partition.mesh();
  std::vector<std::int64_t> cells;
  for (std::int64_t p = partition.chunk_begin(from); p < partition.chunk_begin(from + 1); ++p) {
    bool touches = false;
    for (std::int64_t q = partition.chunk_begin(to); q < partition.chunk_begin(to + 1) && !touches; ++q)
      touches = manhattan(mesh, partition.cell_at(p), partition.cell_at(q)) == 1;
    if (touches) cells.push_back(partition.cell_at(p));
  }
  return cells;
}

TEST(LocalMesh, IndexListsEqualBruteForceBoundariesForEveryPairOfRanks) {
  for (const auto& [box, curve, ranks] : kCases) {
    const CellPartition partition(GlobalMesh{box}, curve, ranks);
    std::vector<LocalMesh> meshes;
    for (int r = 0; r < ranks; ++r) meshes.push_back(build_local_mesh(partition, r));
    for (int a = 0; a < ranks; ++a) {
      const LocalMesh& mesh = meshes[a];
      std::map<int, const NeighbourRank*> by_rank;
      for (const auto& n : mesh.neighbours) by_rank[n.rank] = &n;
      std::set<std::int64_t> expected_ghosts;
      for (int b = 0; b < ranks; ++b) {
        if (b == a) continue;
        const auto send = brute_force_boundary(partition, a, b);
        const auto recv = brute_force_boundary(partition, b, a);
        expected_ghosts.insert(recv.begin(), recv.end());
        if (send.empty()) {
          EXPECT_EQ(by_rank.count(b), 0u) << "rank " << a << " lists non-neighbour " << b;
          continue;
        }
        ASSERT_EQ(by_rank.count(b), 1u) << "rank " << a << " misses neighbour " << b;
        std::vector<std::int64_t> send_ids, recv_ids;
        for (std::int64_t c : by_rank[b]->send_cells) send_ids.push_back(mesh.global_id[c]);
        for (std::int64_t s : by_rank[b]->recv_slots) recv_ids.push_back(mesh.global_id[s]);
        EXPECT_EQ(send_ids, send);
        EXPECT_EQ(recv_ids, recv);
      }
      std::set<std::int64_t> ghosts(mesh.global_id.begin() + mesh.owned, mesh.global_id.end());
      EXPECT_EQ(ghosts, expected_ghosts);
      EXPECT_EQ(static_cast<std::int64_t>(ghosts.size()), mesh.ghosts());
      for (std::int64_t c = 0; c < mesh.owned; ++c)
        for (int face = 0; face < 6; ++face) {
          const std::int64_t n = mesh.face_neighbour[c][face];
          const std::int64_t expected = partition.mesh().neighbour(mesh.global_id[c], face);
          EXPECT_EQ(n < 0 ? -1 : mesh.global_id[n], expected);
        }
    }
  }
}

TEST(ExchangePlan, SendRunsMatchThePeersReceiveRunsOneToOne) {
  for (const auto& [box, curve, ranks] : kCases) {
    const CellPartition partition(GlobalMesh{box}, curve, ranks);
    std::vector<LocalMesh> meshes;
    std::vector<comm::ExchangePlan> plans;
    for (int r = 0; r < ranks; ++r) {
      meshes.push_back(build_local_mesh(partition, r));
      plans.push_back(sage_exchange_plan(meshes.back(), 2));
    }
    for (int a = 0; a < ranks; ++a) {
      for (const comm::Link& link : plans[a].links) {
        const auto peer_link = std::find_if(plans[link.peer].links.begin(), plans[link.peer].links.end(),
                                            [a](const comm::Link& l) { return l.peer == a; });
        ASSERT_NE(peer_link, plans[link.peer].links.end());
        ASSERT_EQ(link.send.size(), peer_link->recv.size());
        for (std::size_t p = 0; p < link.send.size(); ++p) {
          EXPECT_TRUE(link.send[p].contiguous());
          EXPECT_TRUE(peer_link->recv[p].contiguous());
          ASSERT_EQ(link.send[p].size(), peer_link->recv[p].size());
          for (std::int64_t i = 0; i < link.send[p].size(); ++i)  // same cells, same order
            EXPECT_EQ(meshes[a].global_id[link.send[p].first() + i],
                      meshes[link.peer].global_id[peer_link->recv[p].first() + i]);
          if (p > 0) {  // maximal runs: never two that could be one
            EXPECT_NE(link.send[p - 1].first() + link.send[p - 1].size(), link.send[p].first());
          }
        }
      }
    }
  }
}

TEST(LocalMesh, SlabOfWholePlanesSendsOnePlanePerNeighbourAsOneRun) {
  const CellPartition partition(GlobalMesh{{4, 3, 6}}, Partition::Slab, 3);  // two z planes per rank
  const LocalMesh middle = build_local_mesh(partition, 1);
  ASSERT_EQ(middle.neighbours.size(), 2u);
  for (const auto& n : middle.neighbours) {
    EXPECT_EQ(n.send_cells.size(), 12u);
    EXPECT_EQ(consecutive_runs(n.send_cells).size(), 1u);
    EXPECT_EQ(receive_runs(middle, n).size(), 1u);
  }
  EXPECT_EQ(middle.ghosts(), 24);
}

TEST(FaceLists, EveryOwnedCellHasSixFacesAndInternalFacesAreShared) {
  for (const auto& [box, curve, ranks] : kCases) {
    const CellPartition partition(GlobalMesh{box}, curve, ranks);
    const GlobalMesh& g = partition.mesh();
    for (int r = 0; r < ranks; ++r) {
      const LocalMesh mesh = build_local_mesh(partition, r);
      const FaceLists f = build_face_lists(mesh);
      std::vector<int> uses(f.faces(), 0);
      for (std::int64_t c = 0; c < mesh.owned; ++c) {
        for (int k = 0; k < 6; ++k) {
          const std::int64_t face = f.cell_faces[c * 6 + k];
          ASSERT_GE(face, 0);
          ++uses[face];
          EXPECT_EQ(f.axis[face], k / 2);
          EXPECT_EQ(k % 2 == 0 ? f.high[face] : f.low[face], c);  // - face: c is high; + face: c is low
          const std::int64_t other = k % 2 == 0 ? f.low[face] : f.high[face];
          EXPECT_EQ(other < 0 ? -1 : mesh.global_id[other], g.neighbour(mesh.global_id[c], k));
        }
      }
      for (std::int64_t face = 0; face < f.faces(); ++face) {
        const bool both_owned =
            f.low[face] >= 0 && f.low[face] < mesh.owned && f.high[face] >= 0 && f.high[face] < mesh.owned;
        EXPECT_EQ(uses[face], both_owned ? 2 : 1);
      }
    }
  }
}

}  // namespace
}  // namespace amp::sage
