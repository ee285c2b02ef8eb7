// SPDX-License-Identifier: BSD-3-Clause
// UnrecordedCalls: the per-function counts and handle sets of calls DUMPI cannot record, and their
// report at MPI_Finalize (.meta lines and one stderr line on rank 0).
#include <amp/trace/writer/unrecorded_calls.hpp>

#include <amp/trace/writer/mpi_backend.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <amp/trace/writer/handle_key.hpp>

namespace amp::trace {

const char* unrecorded_name(Unrecorded call) {
  switch (call) {
    case Unrecorded::kPsendInit:
      return "MPI_Psend_init";
    case Unrecorded::kPrecvInit:
      return "MPI_Precv_init";
    case Unrecorded::kPready:
      return "MPI_Pready";
    case Unrecorded::kPreadyRange:
      return "MPI_Pready_range";
    case Unrecorded::kPreadyList:
      return "MPI_Pready_list";
    case Unrecorded::kParrived:
      return "MPI_Parrived";
    case Unrecorded::kDistGraphCreateAdjacent:
      return "MPI_Dist_graph_create_adjacent";
    case Unrecorded::kIneighborAlltoallv:
      return "MPI_Ineighbor_alltoallv";
    case Unrecorded::kWinLockAll:
      return "MPI_Win_lock_all";
    case Unrecorded::kWinUnlockAll:
      return "MPI_Win_unlock_all";
    case Unrecorded::kWinFlush:
      return "MPI_Win_flush";
    case Unrecorded::kWinSync:
      return "MPI_Win_sync";
    case Unrecorded::kStart:
      return "MPI_Start";
    case Unrecorded::kStartall:
      return "MPI_Startall";
    case Unrecorded::kWait:
      return "MPI_Wait";
    case Unrecorded::kWaitall:
      return "MPI_Waitall";
    case Unrecorded::kWaitany:
      return "MPI_Waitany";
    case Unrecorded::kWaitsome:
      return "MPI_Waitsome";
    case Unrecorded::kTest:
      return "MPI_Test";
    case Unrecorded::kTestall:
      return "MPI_Testall";
    case Unrecorded::kTestany:
      return "MPI_Testany";
    case Unrecorded::kTestsome:
      return "MPI_Testsome";
    case Unrecorded::kRequestFree:
      return "MPI_Request_free";
    case Unrecorded::kCommFree:
      return "MPI_Comm_free";
    case Unrecorded::kCount:
      break;
  }
  return "?";
}

void UnrecordedCalls::add_request(MPI_Request request, bool persistent) {
  if (request != MPI_REQUEST_NULL) requests_[handle_key(request)] = persistent;
}

bool UnrecordedCalls::is_request(MPI_Request request) const {
  return request != MPI_REQUEST_NULL && requests_.count(handle_key(request)) != 0;
}

void UnrecordedCalls::completed(MPI_Request handle_before) {
  auto found = requests_.find(handle_key(handle_before));
  if (found != requests_.end() && !found->second) requests_.erase(found);
}

void UnrecordedCalls::freed(MPI_Request handle_before) { requests_.erase(handle_key(handle_before)); }

void UnrecordedCalls::add_comm(MPI_Comm comm) {
  if (comm != MPI_COMM_NULL) comms_.insert(handle_key(comm));
}

bool UnrecordedCalls::is_comm(MPI_Comm comm) const { return !comms_.empty() && comms_.count(handle_key(comm)) != 0; }

void UnrecordedCalls::forget_comm(MPI_Comm comm) { comms_.erase(handle_key(comm)); }

bool report_unrecorded_calls(const UnrecordedCalls& calls, const std::string& meta_path) {
  UnrecordedCalls::Counts totals{};
  backend::Reduce(calls.counts().data(), totals.data(), static_cast<int>(totals.size()), MPI_UINT64_T, MPI_SUM, 0,
                  MPI_COMM_WORLD);
  int rank = 0;
  backend::Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 || meta_path.empty()) return true;  // empty: the trace was discarded
  std::uint64_t total = 0;
  std::string meta_lines, listed;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    if (totals[i] == 0) continue;
    const char* name = unrecorded_name(static_cast<Unrecorded>(i));
    total += totals[i];
    meta_lines += std::string("amp_unrecorded_") + name + "=" + std::to_string(totals[i]) + "\n";
    listed += (listed.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(totals[i]);
  }
  meta_lines += "amp_unrecorded_total=" + std::to_string(total) + "\n";
  int fd = ::open(meta_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  bool written =
      fd >= 0 && ::write(fd, meta_lines.data(), meta_lines.size()) == static_cast<ssize_t>(meta_lines.size());
  if (fd >= 0) ::close(fd);
  if (!written)
    std::fprintf(stderr, "amp-dumpi: cannot add the unrecorded-call counts to '%s': %s\n", meta_path.c_str(),
                 std::strerror(errno));
  if (total != 0)
    std::fprintf(stderr, "amp-dumpi: %llu calls with no DUMPI record are not in the trace (%s)\n",
                 static_cast<unsigned long long>(total), listed.c_str());
  return written;
}

}  // namespace amp::trace
