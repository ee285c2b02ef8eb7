// SPDX-License-Identifier: BSD-3-Clause
// The MPI a synthesized rank sees (docs/TRACE_FORMAT.md). One process plays virtual rank R of N, one
// rank after another, so nothing can really be sent. Calls that communicate complete at once and
// move no data: a receive completes with the status its own arguments promise, a collective leaves
// each rank its own contribution. MPI_COMM_WORLD, and the communicators, groups, requests and
// windows made from it, have the virtual rank and size (all ranks on one node, as in a one-node
// run). Datatype and address calls stay the library's own: they are local. Calls with no synthetic
// form stop the synthesis with one line rather than answer for ranks that do not exist.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace amp::trace {

class SyntheticMpi {
 public:
  static bool active() { return active_; }
  static SyntheticMpi& instance();

  // From now on this process is rank `rank` of `size`; everything of the previous rank is forgotten.
  void begin_rank(int rank, int size);
  void end_rank();

  struct Request {
    bool receive = false;
    bool persistent = false;
    bool started = false;
    int peer = 0;
    int tag = 0;
    int bytes = 0;
  };
  struct Comm {
    int rank = 0;
    int size = 1;
  };
  // Members as world ranks; an empty list with `all` set is the whole world (no list of N ints).
  struct Group {
    bool all = false;
    int size = 0;
    std::vector<int> members;
    int member(int i) const { return all ? i : members[static_cast<std::size_t>(i)]; }
  };

  int rank() const { return rank_; }
  int size() const { return size_; }

  std::unordered_map<std::uint64_t, Request> requests;
  std::unordered_map<std::uint64_t, Comm> comms;
  std::unordered_map<std::uint64_t, Group> groups;

  // A fresh handle value of type H that no live virtual object uses (never a null handle).
  template <class H>
  H new_handle();

 private:
  inline static bool active_ = false;
  int rank_ = 0;
  int size_ = 1;
  std::uint32_t next_handle_ = 0;
};

// The stand-ins, with the signatures of the PMPI_* calls they replace.
namespace synthetic {

int Comm_rank(MPI_Comm comm, int* rank);
int Comm_size(MPI_Comm comm, int* size);
int Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm);
int Comm_dup(MPI_Comm comm, MPI_Comm* newcomm);
int Comm_free(MPI_Comm* comm);
int Comm_group(MPI_Comm comm, MPI_Group* group);
int Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup);
int Group_free(MPI_Group* group);
int Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]);

int Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request);
int Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request);
int Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status);
int Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request);
int Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request);
int Start(MPI_Request* request);
int Startall(int count, MPI_Request requests[]);
int Wait(MPI_Request* request, MPI_Status* status);
int Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status);
int Waitsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]);
int Test(MPI_Request* request, int* flag, MPI_Status* status);
int Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]);
int Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status);
int Testsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]);
int Request_free(MPI_Request* request);

int Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm);
int Barrier(MPI_Comm comm);

int Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win);
int Win_free(MPI_Win* win);
int Win_post(MPI_Group group, int assertion, MPI_Win win);
int Win_start(MPI_Group group, int assertion, MPI_Win win);
int Win_complete(MPI_Win win);
int Win_wait(MPI_Win win);
int Win_fence(int assertion, MPI_Win win);
int Put(const void* origin, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
        int target_count, MPI_Datatype target_type, MPI_Win win);
int Get(void* origin, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
        int target_count, MPI_Datatype target_type, MPI_Win win);
int Accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
               int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win);

// Prints "amp_dumpi: synthesis: <call> has no synthetic form (...)" and exits with status 2.
[[noreturn]] void refuse(const char* call);

}  // namespace synthetic

}  // namespace amp::trace
