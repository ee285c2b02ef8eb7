// SPDX-License-Identifier: BSD-3-Clause
// Everything a strategy is told about where it runs, decided by its caller and handed to make_strategy
// (strategy_registry.hpp) in one object, as kokkos-comm's Handle(space, comm) is: the communicator, the
// execution space instance that packs and unpacks, whether data moves, and where MPI's buffers live.
// The comm layer reads no environment variable and keeps no process-wide switch: a proxy turns
// AMP_MPI_BUFFERS and its run mode into this object (miniapps/common/environment.hpp).
#pragma once

#include <amp/comm/memory_space.hpp>
#include <amp/comm/mpi_buffers.hpp>

#include <mpi.h>

#include <utility>

namespace amp::comm {

struct ExchangeContext {
  // A plain run on `comm`: data moves, packing runs on the default instance of ExecutionSpace, and MPI's
  // buffers are where this build's MPI can reach them (MpiBuffers::where_mpi_reaches: after MPI_Init).
  explicit ExchangeContext(MPI_Comm comm) : comm(comm), buffers(MpiBuffers::where_mpi_reaches()) {}
  ExchangeContext(MPI_Comm comm, MpiBuffers buffers, bool moves_data)
      : comm(comm), buffers(std::move(buffers)), moves_data(moves_data) {}

  // The plan's peers are ranks of it; a strategy works on its own duplicate (communicator.hpp).
  MPI_Comm comm;
  // Where MPI reads and writes the exchange areas.
  MpiBuffers buffers;
  // False when only the calls matter (a caller that records them, docs/TRACE_FORMAT.md): each message's
  // MPI calls are made but nothing arrives; packing, unpacking, staging and checking received sizes are
  // skipped, and the areas are left as allocated (only their addresses count).
  bool moves_data = true;
  // Where packing and unpacking run (fenced before MPI sees a slot).
  ExecutionSpace space = ExecutionSpace();
};

}  // namespace amp::comm
