/* SPDX-License-Identifier: BSD-3-Clause */
/* A run shaped like a proxy's: tracing paused for the set-up, a traced loop of 20 steps
 * (1 ms of work and a ring exchange each), paused again for the tear-down and resumed only to record
 * MPI_Finalize. The last rank's tear-down takes 1 s (a slow Kokkos::finalize, say), so rank 0 waits for it
 * inside MPI_Finalize, which first reduces the unrecorded-call counts to rank 0 (AMP's tracing library). */
#include <mpi.h>
#include <time.h>

static void work_for(double seconds) {
  const double until = MPI_Wtime() + seconds;
  while (MPI_Wtime() < until) {
  }
}

int main(int argc, char** argv) {
  int rank, size, step, in[256], out[256] = {0};
  const struct timespec tear_down = {1, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Pcontrol(0);
  MPI_Pcontrol(1);
  for (step = 0; step < 20; ++step) {
    work_for(1e-3);
    MPI_Sendrecv(out, 256, MPI_INT, (rank + 1) % size, step, in, 256, MPI_INT, (rank + size - 1) % size, step,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Pcontrol(0);
  if (rank == size - 1) nanosleep(&tear_down, NULL);
  MPI_Pcontrol(1);
  MPI_Finalize();
  return 0;
}
