// SPDX-License-Identifier: BSD-3-Clause
// Cost of libamp_dumpi on a message-rate loop (8-byte Isend/Irecv pairs between 2 ranks, Waitall
// every 64 pairs): CPU ns per recorded call (traced minus untraced, same run) and bytes per call.
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/trace/reader/trace_file.hpp>

namespace {

constexpr int kWindow = 64;

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// One phase: `windows` windows of 64 Irecv + 64 Isend + 1 Waitall; returns this rank's CPU seconds.
double message_rate_phase(int peer, int windows, bool statuses) {
  static char out[kWindow][8], in[kWindow][8];
  std::vector<MPI_Request> requests(2 * kWindow);
  std::vector<MPI_Status> status_array(2 * kWindow);
  MPI_Status* status_argument = statuses ? status_array.data() : MPI_STATUSES_IGNORE;
  PMPI_Barrier(MPI_COMM_WORLD);
  const double start = cpu_seconds();
  for (int w = 0; w < windows; ++w) {
    for (int i = 0; i < kWindow; ++i) {
      MPI_Irecv(in[i], 8, MPI_BYTE, peer, i, MPI_COMM_WORLD, &requests[i]);
      MPI_Isend(out[i], 8, MPI_BYTE, peer, i, MPI_COMM_WORLD, &requests[kWindow + i]);
    }
    MPI_Waitall(2 * kWindow, requests.data(), status_argument);
  }
  return cpu_seconds() - start;
}

}  // namespace

int main(int argc, char** argv) {
  int windows = 2000, repetitions = 7;
  bool statuses = false;  // --statuses: Waitall gets a status array (as in the sst-dumpi comparison)
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--statuses") == 0) statuses = true;
    if (i + 1 >= argc) continue;
    if (std::strcmp(argv[i], "--windows") == 0) windows = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--repetitions") == 0) repetitions = std::atoi(argv[i + 1]);
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "amp-trace-bench: run with exactly 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  const bool traced = amp_dumpi_active() != 0;
  const int peer = 1 - rank;
  const long calls_per_phase = static_cast<long>(windows) * (2 * kWindow + 1);
  message_rate_phase(peer, windows / 10 + 1, statuses);  // warm-up, recorded when traced

  // Alternate untraced (MPI_Pcontrol(0): the wrappers' pass-through path) and traced phases.
  double best_untraced = 1e30, best_traced = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    MPI_Pcontrol(0);
    best_untraced = std::min(best_untraced, message_rate_phase(peer, windows, statuses));
    MPI_Pcontrol(1);
    best_traced = std::min(best_traced, message_rate_phase(peer, windows, statuses));
  }
  double worst[2], mine[2] = {best_untraced, best_traced};
  PMPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const std::string dir = amp_dumpi_trace_directory();  // the library's AMP_TRACE_DIR
  std::string prefix = std::getenv("AMP_TRACE_PREFIX") ? std::getenv("AMP_TRACE_PREFIX") : "";
  MPI_Finalize();  // the trace file is complete after this

  if (rank != 0) return 0;
  std::printf(
      "amp-trace-bench: 2 ranks, %d windows x (64 Isend + 64 Irecv + 1 Waitall) = %ld calls per phase, "
      "best of %d, statuses %s\n",
      windows, calls_per_phase, repetitions, statuses ? "kept" : "ignored");
  std::printf("untraced (paused) CPU per call: %.1f ns\n", worst[0] / calls_per_phase * 1e9);
  if (!traced) {
    std::printf("tracing off (AMP_TRACE_DIR unset): only the untraced number is meaningful\n");
    return 0;
  }
  std::printf("traced CPU per call:            %.1f ns\n", worst[1] / calls_per_phase * 1e9);
  std::printf("tracing overhead per call:      %.1f ns\n", (worst[1] - worst[0]) / calls_per_phase * 1e9);
  if (!dir.empty() && !prefix.empty()) {
    std::string path = dir + "/" + prefix + "-0000.bin";
    amp::trace::TraceFile file = amp::trace::TraceFile::open(path);
    const auto& footer = file.footer();
    std::uint64_t records = footer.call_counts[amp::trace::kAllFunctions];
    std::uint64_t stream_bytes = file.index().header - 16;  // records + end mark
    std::printf("trace of rank 0: %zu bytes, %llu records, %.1f bytes per recorded call (records only: %.1f)\n",
                file.size(), static_cast<unsigned long long>(records),
                static_cast<double>(file.size()) / static_cast<double>(records),
                static_cast<double>(stream_bytes) / static_cast<double>(records));
  }
  return 0;
}
