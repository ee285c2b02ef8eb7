// SPDX-License-Identifier: BSD-3-Clause
// What the MPI_* wrappers call underneath: backend::X is PMPI_X in a real run. In a synthesis
// (synthetic_mpi.hpp) each call is one of three kinds, listed below: answered for the virtual rank
// (it communicates), the library's own (it is local: datatypes, addresses, clocks), or refused with
// one line (it would need answers from ranks that do not exist in this process).
#pragma once

#include <mpi.h>

#include <amp/trace/writer/synthetic_mpi.hpp>

namespace amp::trace::backend {

template <auto Library, auto Synthetic>
struct Dispatch;
template <class R, class... Args, R (*Library)(Args...), R (*Synthetic)(Args...)>
struct Dispatch<Library, Synthetic> {
  static R call(Args... args) { return SyntheticMpi::active() ? Synthetic(args...) : Library(args...); }
};

template <auto Library, const char* Name>
struct Refused;
template <class R, class... Args, R (*Library)(Args...), const char* Name>
struct Refused<Library, Name> {
  static R call(Args... args) {
    if (SyntheticMpi::active()) synthetic::refuse(Name);
    return Library(args...);
  }
};

#define AMP_SYNTHETIC(name) inline constexpr auto name = &Dispatch<&PMPI_##name, &synthetic::name>::call;
#define AMP_LIBRARY(name) inline constexpr auto name = &PMPI_##name;
#define AMP_NO_SYNTHETIC_FORM(name)                   \
  inline constexpr char name##_name[] = "MPI_" #name; \
  inline constexpr auto name = &Refused<&PMPI_##name, name##_name>::call;

// Answered for the virtual rank.
AMP_SYNTHETIC(Comm_rank)
AMP_SYNTHETIC(Comm_size)
AMP_SYNTHETIC(Comm_split_type)
AMP_SYNTHETIC(Comm_dup)
AMP_SYNTHETIC(Comm_free)
AMP_SYNTHETIC(Comm_group)
AMP_SYNTHETIC(Group_incl)
AMP_SYNTHETIC(Group_free)
AMP_SYNTHETIC(Group_translate_ranks)
AMP_SYNTHETIC(Isend)
AMP_SYNTHETIC(Irecv)
AMP_SYNTHETIC(Send)
AMP_SYNTHETIC(Recv)
AMP_SYNTHETIC(Send_init)
AMP_SYNTHETIC(Recv_init)
AMP_SYNTHETIC(Start)
AMP_SYNTHETIC(Startall)
AMP_SYNTHETIC(Wait)
AMP_SYNTHETIC(Waitall)
AMP_SYNTHETIC(Waitany)
AMP_SYNTHETIC(Waitsome)
AMP_SYNTHETIC(Test)
AMP_SYNTHETIC(Testall)
AMP_SYNTHETIC(Testany)
AMP_SYNTHETIC(Testsome)
AMP_SYNTHETIC(Request_free)
AMP_SYNTHETIC(Allreduce)
AMP_SYNTHETIC(Reduce)
AMP_SYNTHETIC(Bcast)
AMP_SYNTHETIC(Barrier)
AMP_SYNTHETIC(Win_create)
AMP_SYNTHETIC(Win_free)
AMP_SYNTHETIC(Win_post)
AMP_SYNTHETIC(Win_start)
AMP_SYNTHETIC(Win_complete)
AMP_SYNTHETIC(Win_wait)
AMP_SYNTHETIC(Win_fence)
AMP_SYNTHETIC(Put)
AMP_SYNTHETIC(Get)
AMP_SYNTHETIC(Accumulate)

// Local: the library answers.
AMP_LIBRARY(Abort)
AMP_LIBRARY(Finalize)
AMP_LIBRARY(Finalized)
AMP_LIBRARY(Get_address)
AMP_LIBRARY(Get_count)
AMP_LIBRARY(Init)
AMP_LIBRARY(Init_thread)
AMP_LIBRARY(Initialized)
AMP_LIBRARY(Pcontrol)
AMP_LIBRARY(Test_cancelled)
AMP_LIBRARY(Type_commit)
AMP_LIBRARY(Type_contiguous)
AMP_LIBRARY(Type_create_hindexed)
AMP_LIBRARY(Type_create_hvector)
AMP_LIBRARY(Type_create_indexed_block)
AMP_LIBRARY(Type_create_resized)
AMP_LIBRARY(Type_create_struct)
AMP_LIBRARY(Type_free)
AMP_LIBRARY(Type_indexed)
AMP_LIBRARY(Type_size)
AMP_LIBRARY(Type_vector)
AMP_LIBRARY(Wtick)
AMP_LIBRARY(Wtime)

// No synthetic form.
AMP_NO_SYNTHETIC_FORM(Allgather)
AMP_NO_SYNTHETIC_FORM(Allgatherv)
AMP_NO_SYNTHETIC_FORM(Alltoall)
AMP_NO_SYNTHETIC_FORM(Alltoallv)
AMP_NO_SYNTHETIC_FORM(Bsend)
AMP_NO_SYNTHETIC_FORM(Bsend_init)
AMP_NO_SYNTHETIC_FORM(Comm_split)
AMP_NO_SYNTHETIC_FORM(Dist_graph_create_adjacent)
AMP_NO_SYNTHETIC_FORM(Gather)
AMP_NO_SYNTHETIC_FORM(Ibsend)
AMP_NO_SYNTHETIC_FORM(Ineighbor_alltoallv)
AMP_NO_SYNTHETIC_FORM(Irsend)
AMP_NO_SYNTHETIC_FORM(Issend)
AMP_NO_SYNTHETIC_FORM(Rsend)
AMP_NO_SYNTHETIC_FORM(Rsend_init)
AMP_NO_SYNTHETIC_FORM(Scan)
AMP_NO_SYNTHETIC_FORM(Scatter)
AMP_NO_SYNTHETIC_FORM(Sendrecv)
AMP_NO_SYNTHETIC_FORM(Sendrecv_replace)
AMP_NO_SYNTHETIC_FORM(Ssend)
AMP_NO_SYNTHETIC_FORM(Ssend_init)
AMP_NO_SYNTHETIC_FORM(Win_allocate)
AMP_NO_SYNTHETIC_FORM(Win_flush)
AMP_NO_SYNTHETIC_FORM(Win_lock_all)
AMP_NO_SYNTHETIC_FORM(Win_sync)
AMP_NO_SYNTHETIC_FORM(Win_unlock_all)
#if MPI_VERSION >= 4
AMP_NO_SYNTHETIC_FORM(Parrived)
AMP_NO_SYNTHETIC_FORM(Pready)
AMP_NO_SYNTHETIC_FORM(Pready_range)
AMP_NO_SYNTHETIC_FORM(Precv_init)
AMP_NO_SYNTHETIC_FORM(Psend_init)
#endif

#undef AMP_SYNTHETIC
#undef AMP_LIBRARY
#undef AMP_NO_SYNTHETIC_FORM

}  // namespace amp::trace::backend
