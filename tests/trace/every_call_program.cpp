// SPDX-License-Identifier: BSD-3-Clause
// A traced MPI program that calls every function libamp_dumpi records, in a ring pattern that
// works at any rank count (1, 2, 4 in the tests). trace_roundtrip_check reads its trace back.
#include <mpi.h>

#include <cstdio>
#include <vector>

#include <amp/trace/writer/amp_dumpi.h>

namespace {

// Completion by polling: the Test* calls repeat until done (their count is not fixed).
void poll_test(MPI_Request* request) {
  int flag = 0;
  while (!flag) MPI_Test(request, &flag, MPI_STATUS_IGNORE);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (!amp_dumpi_active()) {
    std::fprintf(stderr, "every_call_program: tracing is not active (AMP_TRACE_DIR unset or link order wrong)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  (void)MPI_Wtime();
  (void)MPI_Wtick();

  // Point to point: 1 Send (8 ints), 1 Isend (16 doubles), Sendrecv (4 ints), Isends for Wait*/Test*.
  std::vector<int> ints(64, rank), ints_in(64, -1);
  std::vector<double> doubles(64, rank), doubles_in(64, -1);
  MPI_Request recv_request, send_request;
  MPI_Irecv(ints_in.data(), 8, MPI_INT, left, 1, MPI_COMM_WORLD, &recv_request);
  MPI_Send(ints.data(), 8, MPI_INT, right, 1, MPI_COMM_WORLD);
  MPI_Wait(&recv_request, MPI_STATUS_IGNORE);

  MPI_Isend(ints.data(), 8, MPI_INT, right, 2, MPI_COMM_WORLD, &send_request);
  MPI_Status status;
  MPI_Recv(ints_in.data(), 8, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &status);
  MPI_Wait(&send_request, MPI_STATUS_IGNORE);

  MPI_Request pair[2];
  MPI_Irecv(doubles_in.data(), 16, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(doubles.data(), 16, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &pair[1]);
  MPI_Status statuses[2];
  MPI_Waitall(2, pair, statuses);

  MPI_Irecv(ints_in.data(), 2, MPI_INT, left, 4, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(ints.data(), 2, MPI_INT, right, 4, MPI_COMM_WORLD, &pair[1]);
  int index = -1;
  MPI_Waitany(2, pair, &index, &status);
  MPI_Waitany(2, pair, &index, &status);

  MPI_Irecv(ints_in.data(), 2, MPI_INT, left, 5, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(ints.data(), 2, MPI_INT, right, 5, MPI_COMM_WORLD, &pair[1]);
  int done = 0, outcount = 0, indices[2];
  while (done < 2) {
    MPI_Waitsome(2, pair, &outcount, indices, statuses);
    done += outcount;
  }

  MPI_Irecv(ints_in.data(), 2, MPI_INT, left, 6, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(ints.data(), 2, MPI_INT, right, 6, MPI_COMM_WORLD, &pair[1]);
  poll_test(&pair[1]);
  poll_test(&pair[0]);

  MPI_Irecv(ints_in.data(), 2, MPI_INT, left, 7, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(ints.data(), 2, MPI_INT, right, 7, MPI_COMM_WORLD, &pair[1]);
  int flag = 0;
  while (!flag) MPI_Testall(2, pair, &flag, statuses);

  MPI_Irecv(ints_in.data(), 2, MPI_INT, left, 8, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(ints.data(), 2, MPI_INT, right, 8, MPI_COMM_WORLD, &pair[1]);
  for (int completed = 0; completed < 2;) {
    MPI_Testany(2, pair, &index, &flag, &status);
    if (flag && index != MPI_UNDEFINED) ++completed;
  }

  MPI_Irecv(ints_in.data(), 2, MPI_INT, left, 9, MPI_COMM_WORLD, &pair[0]);
  MPI_Isend(ints.data(), 2, MPI_INT, right, 9, MPI_COMM_WORLD, &pair[1]);
  for (done = 0; done < 2;) {
    MPI_Testsome(2, pair, &outcount, indices, statuses);
    if (outcount != MPI_UNDEFINED) done += outcount;
  }

  MPI_Sendrecv(ints.data(), 4, MPI_INT, right, 10, ints_in.data(), 4, MPI_INT, left, 10, MPI_COMM_WORLD, &status);

  // Persistent requests: 3 rounds of 2 ints.
  MPI_Request persistent[2];
  MPI_Recv_init(ints_in.data(), 2, MPI_INT, left, 11, MPI_COMM_WORLD, &persistent[0]);
  MPI_Send_init(ints.data(), 2, MPI_INT, right, 11, MPI_COMM_WORLD, &persistent[1]);
  MPI_Start(&persistent[0]);
  MPI_Start(&persistent[1]);
  MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  for (int round = 0; round < 2; ++round) {
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);

  // Collectives.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(ints.data(), 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Reduce(doubles.data(), doubles_in.data(), 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(doubles.data(), doubles_in.data(), 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  std::vector<int> gathered(static_cast<std::size_t>(size) * 2), counts(size, 2), displs(size);
  for (int r = 0; r < size; ++r) displs[r] = 2 * r;
  MPI_Allgather(ints.data(), 2, MPI_INT, gathered.data(), 2, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgatherv(ints.data(), 2, MPI_INT, gathered.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
  std::vector<int> all_out(static_cast<std::size_t>(size) * 2, rank), all_in(static_cast<std::size_t>(size) * 2);
  MPI_Alltoall(all_out.data(), 2, MPI_INT, all_in.data(), 2, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoallv(all_out.data(), counts.data(), displs.data(), MPI_INT, all_in.data(), counts.data(), displs.data(),
                MPI_INT, MPI_COMM_WORLD);
  MPI_Gather(ints.data(), 2, MPI_INT, gathered.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(gathered.data(), 2, MPI_INT, ints_in.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);

  // Communicators: messages on a dup of WORLD stay in the matrix.
  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(dup, rank % 2, rank, &split);
  MPI_Irecv(ints_in.data(), 1, MPI_INT, left, 12, dup, &recv_request);
  MPI_Send(ints.data(), 1, MPI_INT, right, 12, dup);
  MPI_Wait(&recv_request, MPI_STATUS_IGNORE);
  MPI_Barrier(split);
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);

  // Derived datatypes: one message of a vector type (3 blocks of 2 doubles = 48 bytes).
  MPI_Datatype column, triple;
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &column);
  MPI_Type_contiguous(3, MPI_INT, &triple);
  MPI_Type_commit(&column);
  MPI_Type_commit(&triple);
  MPI_Irecv(doubles_in.data(), 1, column, left, 13, MPI_COMM_WORLD, &recv_request);
  MPI_Send(doubles.data(), 1, column, right, 13, MPI_COMM_WORLD);
  MPI_Wait(&recv_request, MPI_STATUS_IGNORE);
  MPI_Type_free(&column);
  MPI_Type_free(&triple);

  // One-sided.
  std::vector<int> window(16, 0);
  MPI_Win win;
  MPI_Win_create(window.data(), 16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(ints.data(), 2, MPI_INT, right, 0, 2, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get(ints_in.data(), 2, MPI_INT, left, 0, 2, MPI_INT, win);
  MPI_Accumulate(ints.data(), 2, MPI_INT, right, 4, 2, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);

  // A paused region: the Barrier inside is counted as ignored, not recorded; the Comm_dup is
  // recorded anyway (object lifecycle), so the message on it after resuming stays replayable.
  MPI_Pcontrol(0);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm late;
  MPI_Comm_dup(MPI_COMM_WORLD, &late);
  MPI_Pcontrol(1);
  MPI_Irecv(ints_in.data(), 1, MPI_INT, left, 14, late, &recv_request);
  MPI_Send(ints.data(), 1, MPI_INT, right, 14, late);
  MPI_Wait(&recv_request, MPI_STATUS_IGNORE);
  MPI_Comm_free(&late);

  MPI_Finalize();
  return 0;
}
