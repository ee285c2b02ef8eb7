// SPDX-License-Identifier: BSD-3-Clause
// Gather/scatter bandwidth of amp-sage's exchange preparation: every send index list of a Hilbert
// partition gathered into a (variable, cell) buffer and scattered back, against a contiguous copy of the same volume.
#include <amp/miniapps/sage/cell_partition.hpp>
#include <amp/miniapps/sage/local_mesh.hpp>
#include <amp/kernels/gather_scatter.hpp>

#include <amp/comm/stopwatch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Variable v's part [v * m, (v + 1) * m) of the buffer.
Kokkos::View<double*> part_of(const Kokkos::View<double*>& buffer, int v, std::int64_t m) {
  return Kokkos::subview(buffer, std::make_pair(v * m, (v + 1) * m));
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 96;  // global mesh n^3
    const int ranks = argc > 2 ? std::atoi(argv[2]) : 64;        // partition cut into this many chunks
    const int vars = 8, repetitions = 20;
    const amp::sage::CellPartition partition(amp::sage::GlobalMesh{{n, n, n}}, amp::sage::Partition::Hilbert, ranks);
    const amp::sage::LocalMesh mesh = amp::sage::build_local_mesh(partition, ranks / 2);
    std::vector<std::int64_t> list;
    for (const auto& nb : mesh.neighbours) list.insert(list.end(), nb.send_cells.begin(), nb.send_cells.end());
    Kokkos::View<std::int64_t*> index("index", list.size());
    auto mirror = Kokkos::create_mirror_view(index);
    for (std::size_t i = 0; i < list.size(); ++i) mirror(i) = list[i];
    Kokkos::deep_copy(index, mirror);
    const std::int64_t m = static_cast<std::int64_t>(list.size());
    std::vector<Kokkos::View<double*>> fields;
    for (int v = 0; v < vars; ++v) fields.emplace_back("field", mesh.local_cells());
    Kokkos::View<double*> buffer("buffer", m * vars), source("source", m * vars);
    const amp::kernels::IndexList<> idx = index;

    double gather = 0, scatter = 0, copy = 0;
    for (int r = 0; r < repetitions + 1; ++r) {  // first round warms up
      double t0 = amp::now_seconds();
      for (int v = 0; v < vars; ++v) amp::kernels::gather(fields[v], idx, 0, m, part_of(buffer, v, m));
      Kokkos::fence();
      double t1 = amp::now_seconds();
      for (int v = 0; v < vars; ++v) amp::kernels::scatter(part_of(buffer, v, m), idx, 0, m, fields[v]);
      Kokkos::fence();
      double t2 = amp::now_seconds();
      Kokkos::deep_copy(buffer, source);
      Kokkos::fence();
      double t3 = amp::now_seconds();
      if (r == 0) continue;
      gather += t1 - t0;
      scatter += t2 - t1;
      copy += t3 - t2;
    }
    const double bytes = 2.0 * 8.0 * m * vars * repetitions;  // read + write per element
    std::printf("mesh %lld^3, %d chunks, rank %d: %lld owned, %zu neighbours, %lld send cells x %d variables\n",
                static_cast<long long>(n), ranks, ranks / 2, static_cast<long long>(mesh.owned), mesh.neighbours.size(),
                static_cast<long long>(m), vars);
    std::printf("gather (index list)   %8.2f GB/s  (%.3f of contiguous copy)\n", bytes / gather * 1e-9, copy / gather);
    std::printf("scatter (index list)  %8.2f GB/s  (%.3f of contiguous copy)\n", bytes / scatter * 1e-9,
                copy / scatter);
    std::printf("contiguous copy       %8.2f GB/s  (baseline, same volume)\n", bytes / copy * 1e-9);
  }
  Kokkos::finalize();
  return 0;
}
