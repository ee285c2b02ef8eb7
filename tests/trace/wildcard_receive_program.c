/* SPDX-License-Identifier: BSD-3-Clause */
/* Blocking receives whose status the program ignores: rank 0 takes one message
 * from every other rank with MPI_Recv from MPI_ANY_SOURCE, one from rank 1 with MPI_ANY_TAG, and
 * ranks 0 and 1 swap a value with MPI_Sendrecv from MPI_ANY_SOURCE; all with MPI_STATUS_IGNORE. */
#include <mpi.h>

int main(int argc, char** argv) {
  int rank, size, other, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (other = 1; other < size; ++other)
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (size > 1) MPI_Recv(&value, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    if (rank == 1) MPI_Send(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  }
  if (rank < 2 && size > 1)
    MPI_Sendrecv(&rank, 1, MPI_INT, 1 - rank, 5, &value, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
