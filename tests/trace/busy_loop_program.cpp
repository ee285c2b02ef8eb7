// SPDX-License-Identifier: BSD-3-Clause
// A traced program for the fault tests: writes its pid to <AMP_TRACE_DIR>/pid.<rank>, then
// exchanges small messages with its neighbours until killed, or until it exits without
// MPI_Finalize ("exit" mode) after 2000 iterations. Stops by itself after 60 s in any case.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const bool exit_without_finalize = argc > 1 && std::strcmp(argv[1], "exit") == 0;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* dir = std::getenv("AMP_TRACE_DIR");
  if (dir != nullptr) {
    std::string pid_path = std::string(dir) + "/pid." + std::to_string(rank);
    if (FILE* pid_file = std::fopen(pid_path.c_str(), "w")) {
      std::fprintf(pid_file, "%d\n", static_cast<int>(getpid()));
      std::fclose(pid_file);
    }
  }
  int out[16] = {0}, in[16];
  const double start = MPI_Wtime();
  for (long iteration = 0; MPI_Wtime() - start < 60.0; ++iteration) {
    MPI_Request requests[2];
    MPI_Irecv(in, 16, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, 16, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    if (exit_without_finalize && iteration == 2000) std::exit(3);
    usleep(50);  // keep the trace small: about 20k records per rank and second
  }
  MPI_Finalize();
  return 0;
}
