// SPDX-License-Identifier: BSD-3-Clause
// A traced MPI_THREAD_MULTIPLE program: two threads per rank exchange messages with the
// neighbouring ranks concurrently (distinct tags), so records from both threads interleave.
#include <mpi.h>

#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kIterations = 200;

void exchange(int thread, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = rank, in = -1;
  for (int i = 0; i < kIterations; ++i) {
    MPI_Request requests[2];
    MPI_Irecv(&in, 1, MPI_INT, left, thread, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&out, 1, MPI_INT, right, thread, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "threads_program: MPI_THREAD_MULTIPLE not available (got %d)\n", provided);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) threads.emplace_back(exchange, t, rank, size);
  for (auto& t : threads) t.join();
  MPI_Finalize();
  return 0;
}
