// SPDX-License-Identifier: BSD-3-Clause
// Gives every request-creating call its own DUMPI request id, and maps each handle passed to a
// Wait/Test call back to its operation, oldest outstanding first (MPICH shares one handle among
// small eager sends, so a handle value alone does not identify an operation). Among operations
// sharing a handle, the one whose request variable (the slot the start call wrote the handle to) is
// the slot the completion call passes comes first: programs usually wait on the array they started
// into, and then the trace names the operation that really completed. Under
// MPI_THREAD_MULTIPLE two threads can hold the same shared handle at once: a thread's handle maps to
// the operations that thread started before any other thread's.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace amp::trace {

class RequestNumbering {
 public:
  // A nonblocking operation started by thread `thread` (current_thread_number()) returned this handle
  // into `slot` (the caller's request variable; null when unknown).
  std::int32_t started(MPI_Request handle, std::uint16_t thread = 0, const MPI_Request* slot = nullptr);
  // A persistent request was created (Send_init, Recv_init): the id lives until Request_free.
  std::int32_t persistent_created(MPI_Request handle);

  // Ids for the handles passed to a completion call by `thread`, before the call changes them
  // (`slots`: the caller's array, whose addresses are the slots; null when unknown). A shared handle
  // maps to the operation started into the same slot, else to its oldest outstanding operation not yet
  // named in this call, counting the calling thread's operations first.
  void resolve(const MPI_Request* handles, int count, std::vector<std::int32_t>& ids, std::uint16_t thread = 0,
               const MPI_Request* slots = nullptr);
  std::int32_t resolve_one(MPI_Request handle, std::uint16_t thread = 0, const MPI_Request* slot = nullptr);

  // The operation at position i of the last resolve() completed (persistent ones stay known).
  void completed(const MPI_Request* handles_before, const std::vector<std::int32_t>& ids, int i);
  void completed_one(MPI_Request handle_before, std::int32_t id);
  // Request_free: the operation (or persistent request) is gone.
  void freed(MPI_Request handle_before, std::int32_t id);

 private:
  struct Operation {
    std::int32_t id;
    std::uint16_t thread;
    const MPI_Request* slot;
    std::uint64_t named_in = 0;  // the resolve call that last named it
  };
  struct Outstanding {  // FIFO of the operations sharing one handle value
    std::vector<Operation> ops;
    std::size_t head = 0;
    std::size_t size() const { return ops.size() - head; }
    // The operation started into `slot`, else the oldest, the thread's own ones first; only operations
    // not yet named in resolve call `call`; nullptr when none is left.
    Operation* pick(const MPI_Request* slot, std::uint16_t thread, std::uint64_t call);
  };
  std::int32_t resolve_handle(MPI_Request handle, std::uint16_t thread, const MPI_Request* slot, std::uint64_t call);
  void remove(std::uint64_t key, std::int32_t id);

  std::int32_t next_id_ = 2;
  std::unordered_map<std::uint64_t, Outstanding> outstanding_;
  std::unordered_map<std::uint64_t, std::int32_t> persistent_;
  std::uint64_t resolve_calls_ = 0;
};

}  // namespace amp::trace
