/* SPDX-License-Identifier: BSD-3-Clause */
/* A plain MPI C program that knows nothing of AMP: the LD_PRELOAD test traces it with
 * libamp_dumpi. Each rank sends ROUNDS messages of 100 ints to its right neighbour. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 10

int main(int argc, char** argv) {
  int rank, size, round, in[100], out[100] = {0};
  MPI_Request requests[2];
  MPI_Status statuses[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (round = 0; round < ROUNDS; ++round) {
    MPI_Irecv(in, 100, MPI_INT, (rank + size - 1) % size, round, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, 100, MPI_INT, (rank + 1) % size, round, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, statuses);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
