// SPDX-License-Identifier: BSD-3-Clause
// Calls with no DUMPI record (MPI-4 partitioned communication, neighbourhood collectives and the
// distributed-graph communicators they use, MPI-3 passive-target synchronisation): counted per function instead of
// silently dropped, and the handles they make remembered, so that Start/Wait/Test/Request_free/Comm_free on those
// handles are counted too rather than written as requests or communicators the trace never defined. At MPI_Finalize the
// counts, summed over ranks, go into the run's .meta and one line on stderr.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace amp::trace {

enum class Unrecorded : std::uint8_t {
  kPsendInit,
  kPrecvInit,
  kPready,
  kPreadyRange,
  kPreadyList,
  kParrived,
  kDistGraphCreateAdjacent,
  kIneighborAlltoallv,
  kWinLockAll,
  kWinUnlockAll,
  kWinFlush,
  kWinSync,
  // Calls that have a DUMPI record but touched only handles made by the calls above.
  kStart,
  kStartall,
  kWait,
  kWaitall,
  kWaitany,
  kWaitsome,
  kTest,
  kTestall,
  kTestany,
  kTestsome,
  kRequestFree,
  kCommFree,
  kCount
};

const char* unrecorded_name(Unrecorded call);  // "MPI_Pready"

class UnrecordedCalls {
 public:
  void count(Unrecorded call) { ++counts_[static_cast<std::size_t>(call)]; }

  // Requests: persistent ones (Psend_init/Precv_init) live until Request_free, others (Ineighbor_*)
  // until the call that completes them.
  void add_request(MPI_Request request, bool persistent);
  bool has_requests() const { return !requests_.empty(); }
  bool is_request(MPI_Request request) const;
  void completed(MPI_Request handle_before);  // forgets a non-persistent request
  void freed(MPI_Request handle_before);

  void add_comm(MPI_Comm comm);
  bool is_comm(MPI_Comm comm) const;
  void forget_comm(MPI_Comm comm);

  using Counts = std::array<std::uint64_t, static_cast<std::size_t>(Unrecorded::kCount)>;
  const Counts& counts() const { return counts_; }

 private:
  Counts counts_{};
  std::unordered_map<std::uint64_t, bool> requests_;  // handle key -> persistent
  std::unordered_set<std::uint64_t> comms_;
};

// Collective over MPI_COMM_WORLD (PMPI only), before PMPI_Finalize: sums every rank's counts on rank 0,
// which appends them to the .meta (`amp_unrecorded_<MPI name>=N` per function that occurred, then
// `amp_unrecorded_total=N`) and prints one line on stderr when the total is not 0; with an empty
// meta_path (a discarded trace) it sums and writes nothing. Returns false when rank 0 could not
// append to the .meta (it printed one line naming it).
bool report_unrecorded_calls(const UnrecordedCalls& calls, const std::string& meta_path);

}  // namespace amp::trace
