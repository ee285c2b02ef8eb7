// SPDX-License-Identifier: BSD-3-Clause
// Two proxies in one MPI job, each on its own half of the world: MPI_COMM_WORLD is split by
// rank < half; the first half runs amp-ghost, the second amp-sage, each on its sub-communicator (the
// comm layer duplicates it, so neither sees the other's tags). Exits with the worse exit code of the
// two on every rank (tests/comm/test_split_world.py compares their checksums with plain runs).
//
// Usage: split_world_program --ghost GHOST_ARGS... --sage SAGE_ARGS...   (an even number of ranks)
#include <amp/miniapps/ghost/ghost_proxy.hpp>
#include <amp/miniapps/sage/sage_proxy.hpp>

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

// argv[0] followed by the arguments between `flag` and the next of --ghost / --sage.
std::vector<char*> arguments_after(int argc, char** argv, const char* flag) {
  std::vector<char*> out{argv[0]};
  bool inside = false;
  for (int i = 1; i < argc; ++i) {
    const bool marker = std::strcmp(argv[i], "--ghost") == 0 || std::strcmp(argv[i], "--sage") == 0;
    if (marker)
      inside = std::strcmp(argv[i], flag) == 0;
    else if (inside)
      out.push_back(argv[i]);
  }
  out.push_back(nullptr);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size % 2 != 0) {
    if (rank == 0) std::fprintf(stderr, "split_world_program: error: needs an even number of ranks, got %d\n", size);
    MPI_Finalize();
    return 2;
  }
  const bool ghost_half = rank < size / 2;
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, ghost_half ? 0 : 1, rank, &half);
  std::vector<char*> args = arguments_after(argc, argv, ghost_half ? "--ghost" : "--sage");
  const int own_argc = static_cast<int>(args.size()) - 1;
  const int code = ghost_half ? amp::ghost::ghost_proxy_main(half, own_argc, args.data())
                              : amp::sage::sage_proxy_main(half, own_argc, args.data());
  MPI_Comm_free(&half);
  int worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
