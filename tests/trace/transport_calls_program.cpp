// SPDX-License-Identifier: BSD-3-Clause
// A traced MPI program that makes exactly the calls of one AMP transport on a ring of
// 2-4 ranks, so test_transport_trace.py can assert the trace record by record:
//   persistent   two request sets (Send_init/Recv_init to both neighbours) started alternately by
//                Startall, Waitall, Request_free
//   pscw         a window per variable, Comm_group + Group_incl of the neighbours, per phase
//                Win_post/Win_start/Put/Win_complete/Win_wait, Group_free, Win_free
//   datatype     vector, hvector, indexed, indexed_block, hindexed, resized and struct (absolute
//                addresses from Get_address, sent from MPI_BOTTOM) types sent in place by Isend/Irecv
//   indexed      only the MPI-1 constructors SST-macro 16.0 replays (vector, indexed), sent in place
//   partitioned  (MPI_VERSION >= 4, else exit 77) Psend_init/Precv_init beside a recorded persistent
//                pair: mixed Startall/Waitall, Start, Pready, Parrived, Wait, Test, Request_free
//   neighbor     Dist_graph_create_adjacent, Ineighbor_alltoallv + Wait, Comm_free
// Every mode checks the data it received. Polling calls (Parrived, Test) have no fixed count: each
// rank prints how many it made ("rank R polls: parrived=N test=M").
// Usage: trace_transport_calls_program MODE [--trace DIR]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kDoubles = 16;   // per message of the plain transports
constexpr int kExchanges = 4;  // persistent: each of the two request sets starts twice

struct Ring {
  int rank = 0, size = 1, left = 0, right = 0;
};

[[noreturn]] void fail(const Ring& ring, const std::string& what) {
  std::fprintf(stderr, "transport_calls_program: rank %d: %s\n", ring.rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

double value(int rank, int exchange, int i) { return rank * 1000.0 + exchange * 100.0 + i; }

void expect_from(const Ring& ring, const double* got, int from, int exchange, const char* what) {
  for (int i = 0; i < kDoubles; ++i)
    if (got[i] != value(from, exchange, i))
      fail(ring,
           std::string(what) + ": wrong data at " + std::to_string(i) + " in exchange " + std::to_string(exchange));
}

// Two arrays swapped each step (current/next): one request set per array.
void persistent(const Ring& ring) {
  std::vector<double> send[2], recv[2];
  MPI_Request sets[2][4];
  for (int s = 0; s < 2; ++s) {
    send[s].assign(2 * kDoubles, 0.0);
    recv[s].assign(2 * kDoubles, -1.0);
    MPI_Send_init(send[s].data(), kDoubles, MPI_DOUBLE, ring.right, 1, MPI_COMM_WORLD, &sets[s][0]);
    MPI_Send_init(send[s].data() + kDoubles, kDoubles, MPI_DOUBLE, ring.left, 2, MPI_COMM_WORLD, &sets[s][1]);
    MPI_Recv_init(recv[s].data(), kDoubles, MPI_DOUBLE, ring.left, 1, MPI_COMM_WORLD, &sets[s][2]);
    MPI_Recv_init(recv[s].data() + kDoubles, kDoubles, MPI_DOUBLE, ring.right, 2, MPI_COMM_WORLD, &sets[s][3]);
  }
  for (int e = 0; e < kExchanges; ++e) {
    const int s = e % 2;
    for (int i = 0; i < kDoubles; ++i) send[s][i] = send[s][kDoubles + i] = value(ring.rank, e, i);
    MPI_Startall(4, sets[s]);
    MPI_Waitall(4, sets[s], MPI_STATUSES_IGNORE);
    expect_from(ring, recv[s].data(), ring.left, e, "persistent from left");
    expect_from(ring, recv[s].data() + kDoubles, ring.right, e, "persistent from right");
  }
  for (auto& set : sets)
    for (MPI_Request& request : set) MPI_Request_free(&request);
}

// One window per variable over the receive side (slot 0: from the left, slot 1: from the right).
void pscw(const Ring& ring) {
  constexpr int kVariables = 2, kPhases = 3;
  std::vector<double> exposed[kVariables], origin(kDoubles);
  MPI_Win windows[kVariables];
  for (int v = 0; v < kVariables; ++v) {
    exposed[v].assign(2 * kDoubles, -1.0);
    MPI_Win_create(exposed[v].data(), 2 * kDoubles * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &windows[v]);
  }
  MPI_Group world, neighbours;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int members[2] = {ring.left < ring.right ? ring.left : ring.right, ring.left < ring.right ? ring.right : ring.left};
  MPI_Group_incl(world, ring.left == ring.right ? 1 : 2, members, &neighbours);
  for (int phase = 0; phase < kPhases; ++phase) {
    for (int v = 0; v < kVariables; ++v) {
      for (int i = 0; i < kDoubles; ++i) origin[i] = value(ring.rank, phase * kVariables + v, i);
      MPI_Win_post(neighbours, 0, windows[v]);
      MPI_Win_start(neighbours, 0, windows[v]);
      MPI_Put(origin.data(), kDoubles, MPI_DOUBLE, ring.right, 0, kDoubles, MPI_DOUBLE, windows[v]);
      MPI_Put(origin.data(), kDoubles, MPI_DOUBLE, ring.left, kDoubles, kDoubles, MPI_DOUBLE, windows[v]);
      MPI_Win_complete(windows[v]);
      MPI_Win_wait(windows[v]);
      expect_from(ring, exposed[v].data(), ring.left, phase * kVariables + v, "put from left");
      expect_from(ring, exposed[v].data() + kDoubles, ring.right, phase * kVariables + v, "put from right");
    }
  }
  MPI_Group_free(&neighbours);
  MPI_Group_free(&world);
  for (MPI_Win& window : windows) MPI_Win_free(&window);
}

// Each derived type describes pieces of a 64-double array in place; received with the same type
// (the struct, built on absolute addresses, as plain doubles), checked element by element.
void datatype(const Ring& ring) {
  constexpr int kArray = 64, kTypeExchanges = 2;
  std::vector<double> source(kArray), extra(4);
  MPI_Datatype vector, hvector, indexed, indexed_block, hindexed, resized, structure;
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &vector);                             // 8 doubles
  MPI_Type_create_hvector(3, 3, 10 * sizeof(double), MPI_DOUBLE, &hvector);  // 9
  const int lengths[3] = {1, 3, 2}, displacements[3] = {0, 5, 20};
  MPI_Type_indexed(3, lengths, displacements, MPI_DOUBLE, &indexed);               // 6
  MPI_Type_create_indexed_block(3, 2, displacements, MPI_DOUBLE, &indexed_block);  // 6
  const MPI_Aint byte_displacements[3] = {8, 80, 400};
  MPI_Type_create_hindexed(3, lengths, byte_displacements, MPI_DOUBLE, &hindexed);  // 6
  MPI_Type_create_resized(vector, 0, 64 * sizeof(double), &resized);                // 8
  MPI_Aint addresses[2];
  MPI_Get_address(source.data(), &addresses[0]);
  MPI_Get_address(extra.data(), &addresses[1]);
  const int struct_lengths[2] = {1, 4};
  const MPI_Datatype struct_types[2] = {indexed, MPI_DOUBLE};
  MPI_Type_create_struct(2, struct_lengths, addresses, struct_types, &structure);  // 10
  MPI_Datatype sent[] = {vector, hvector, indexed, indexed_block, hindexed, resized, structure};
  constexpr int kTypes = sizeof(sent) / sizeof(sent[0]);
  for (MPI_Datatype& type : sent) MPI_Type_commit(&type);

  std::vector<double> received[kTypes];
  for (int e = 0; e < kTypeExchanges; ++e) {
    for (int i = 0; i < kArray; ++i) source[i] = value(ring.rank, e, i);
    for (int i = 0; i < 4; ++i) extra[i] = value(ring.rank, e, kArray + i);
    MPI_Request requests[2 * kTypes];
    for (int t = 0; t < kTypes; ++t) {
      received[t].assign(kArray, -1.0);
      int bytes = 0;
      MPI_Type_size(sent[t], &bytes);
      if (sent[t] == structure)
        MPI_Irecv(received[t].data(), bytes / 8, MPI_DOUBLE, ring.left, 10 + t, MPI_COMM_WORLD, &requests[2 * t]);
      else
        MPI_Irecv(received[t].data(), 1, sent[t], ring.left, 10 + t, MPI_COMM_WORLD, &requests[2 * t]);
      if (sent[t] == structure)
        MPI_Isend(MPI_BOTTOM, 1, structure, ring.right, 10 + t, MPI_COMM_WORLD, &requests[2 * t + 1]);
      else
        MPI_Isend(source.data(), 1, sent[t], ring.right, 10 + t, MPI_COMM_WORLD, &requests[2 * t + 1]);
    }
    MPI_Waitall(2 * kTypes, requests, MPI_STATUSES_IGNORE);
    for (int t = 0; t < kTypes; ++t) {  // an in-place type lands where it was taken from
      int bytes = 0;
      MPI_Type_size(sent[t], &bytes);
      int landed = 0;
      for (int i = 0; i < kArray; ++i) {
        if (received[t][i] == -1.0) continue;
        const bool ok = sent[t] == structure ? received[t][i] == (i < 6 ? value(ring.left, e,
                                                                                displacements[i < 1   ? 0
                                                                                              : i < 4 ? 1
                                                                                                      : 2] +
                                                                                    (i < 1   ? 0
                                                                                     : i < 4 ? i - 1
                                                                                             : i - 4))
                                                                        : value(ring.left, e, kArray + i - 6))
                                             : received[t][i] == value(ring.left, e, i);
        if (!ok) fail(ring, "derived type " + std::to_string(t) + ": wrong data at " + std::to_string(i));
        ++landed;
      }
      if (landed != bytes / 8)
        fail(ring, "derived type " + std::to_string(t) + ": " + std::to_string(landed) + " doubles landed");
    }
  }
  for (MPI_Datatype& type : sent) MPI_Type_free(&type);
}

// The subset of `datatype` that SST-macro 16.0 replays: Type_vector and Type_indexed, in place.
void indexed(const Ring& ring) {
  constexpr int kArray = 64;
  std::vector<double> source(kArray), received[2];
  MPI_Datatype types[2];
  const int lengths[3] = {1, 3, 2}, displacements[3] = {0, 5, 20};
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &types[0]);
  MPI_Type_indexed(3, lengths, displacements, MPI_DOUBLE, &types[1]);
  for (MPI_Datatype& type : types) MPI_Type_commit(&type);
  for (int i = 0; i < kArray; ++i) source[i] = value(ring.rank, 0, i);
  MPI_Request requests[4];
  for (int t = 0; t < 2; ++t) {
    received[t].assign(kArray, -1.0);
    MPI_Irecv(received[t].data(), 1, types[t], ring.left, 20 + t, MPI_COMM_WORLD, &requests[2 * t]);
    MPI_Isend(source.data(), 1, types[t], ring.right, 20 + t, MPI_COMM_WORLD, &requests[2 * t + 1]);
  }
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  for (int t = 0; t < 2; ++t) {
    int landed = 0;
    for (int i = 0; i < kArray; ++i) {
      if (received[t][i] == -1.0) continue;
      if (received[t][i] != value(ring.left, 0, i)) fail(ring, "indexed: wrong data at " + std::to_string(i));
      ++landed;
    }
    if (landed != (t == 0 ? 8 : 6)) fail(ring, "indexed: " + std::to_string(landed) + " doubles landed");
  }
  for (MPI_Datatype& type : types) MPI_Type_free(&type);
}

#if MPI_VERSION >= 4
// Partitioned requests beside a recorded persistent pair, so that Startall and Waitall mix both kinds.
void partitioned(const Ring& ring) {
  constexpr int kPartitions = 4, kPartExchanges = 2;
  std::vector<double> psend(kDoubles), precv(kDoubles), send(kDoubles), recv(kDoubles);
  MPI_Request all[4];  // recorded receive, recorded send, partitioned receive, partitioned send
  MPI_Recv_init(recv.data(), kDoubles, MPI_DOUBLE, ring.left, 3, MPI_COMM_WORLD, &all[0]);
  MPI_Send_init(send.data(), kDoubles, MPI_DOUBLE, ring.right, 3, MPI_COMM_WORLD, &all[1]);
  MPI_Precv_init(precv.data(), kPartitions, kDoubles / kPartitions, MPI_DOUBLE, ring.left, 4, MPI_COMM_WORLD,
                 MPI_INFO_NULL, &all[2]);
  MPI_Psend_init(psend.data(), kPartitions, kDoubles / kPartitions, MPI_DOUBLE, ring.right, 4, MPI_COMM_WORLD,
                 MPI_INFO_NULL, &all[3]);
  long parrived = 0, tests = 0;
  for (int e = 0; e < kPartExchanges; ++e) {
    for (int i = 0; i < kDoubles; ++i) send[i] = psend[i] = value(ring.rank, e, i);
    if (e % 2 == 0) {
      MPI_Startall(4, all);  // mixed: recorded with the two recorded requests
    } else {
      MPI_Startall(2, all);
      MPI_Start(&all[2]);
      MPI_Start(&all[3]);
    }
    for (int p = 0; p < kPartitions; ++p) MPI_Pready(p, all[3]);
    for (int p = 0; p < kPartitions; ++p) {
      int flag = 0;
      while (!flag) {
        MPI_Parrived(all[2], p, &flag);
        ++parrived;
      }
    }
    if (e % 2 == 0) {
      MPI_Waitall(4, all, MPI_STATUSES_IGNORE);  // mixed: partitioned ones written as MPI_REQUEST_NULL
    } else {
      MPI_Wait(&all[3], MPI_STATUS_IGNORE);
      int flag = 0;
      while (!flag) {
        MPI_Test(&all[2], &flag, MPI_STATUS_IGNORE);
        ++tests;
      }
      MPI_Waitall(2, all, MPI_STATUSES_IGNORE);
    }
    expect_from(ring, recv.data(), ring.left, e, "persistent beside partitioned");
    expect_from(ring, precv.data(), ring.left, e, "partitioned");
  }
  for (MPI_Request& request : all) MPI_Request_free(&request);
  std::printf("rank %d polls: parrived=%ld test=%ld\n", ring.rank, parrived, tests);
}
#endif

void neighbor(const Ring& ring) {
  constexpr int kNeighbourExchanges = 3;
  const int neighbours[2] = {ring.left, ring.right};
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, neighbours, MPI_UNWEIGHTED, 2, neighbours, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);
  std::vector<double> send(2 * kDoubles), recv(2 * kDoubles);
  const int counts[2] = {kDoubles, kDoubles}, displacements[2] = {0, kDoubles};
  for (int e = 0; e < kNeighbourExchanges; ++e) {
    for (int i = 0; i < kDoubles; ++i) send[i] = send[kDoubles + i] = value(ring.rank, e, i);
    MPI_Request request;
    MPI_Ineighbor_alltoallv(send.data(), counts, displacements, MPI_DOUBLE, recv.data(), counts, displacements,
                            MPI_DOUBLE, graph, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    expect_from(ring, recv.data(), ring.left, e, "neighbour from left");
    expect_from(ring, recv.data() + kDoubles, ring.right, e, "neighbour from right");
  }
  MPI_Comm_free(&graph);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s persistent|pscw|datatype|indexed|partitioned|neighbor [--trace DIR]\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
#if MPI_VERSION < 4
  if (mode == "partitioned") {
    std::printf("skipped: this MPI (MPI_VERSION %d) has no partitioned communication\n", MPI_VERSION);
    return 77;
  }
#endif
  if (argc == 4 && std::strcmp(argv[2], "--trace") == 0) setenv("AMP_TRACE_DIR", argv[3], 1);
  MPI_Init(&argc, &argv);
  Ring ring;
  MPI_Comm_rank(MPI_COMM_WORLD, &ring.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ring.size);
  ring.right = (ring.rank + 1) % ring.size;
  ring.left = (ring.rank + ring.size - 1) % ring.size;
  if (mode == "persistent")
    persistent(ring);
  else if (mode == "pscw")
    pscw(ring);
  else if (mode == "datatype")
    datatype(ring);
  else if (mode == "indexed")
    indexed(ring);
#if MPI_VERSION >= 4
  else if (mode == "partitioned")
    partitioned(ring);
#endif
  else if (mode == "neighbor")
    neighbor(ring);
  else
    fail(ring, "unknown mode '" + mode + "'");
  MPI_Finalize();
  return 0;
}
