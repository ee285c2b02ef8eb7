// SPDX-License-Identifier: BSD-3-Clause
// Checks the trace of threads_program: valid files, records from two worker threads besides the
// main one (thread numbers 1 and 2), 200 Isend/Irecv/Waitall each, request ids unique per rank, and
// every Waitall completes requests its own thread started, each once (threads may share a handle).
// Usage: trace_threads_check TRACE_DIR RANKS
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include <amp/trace/reader/trace_validation.hpp>

using namespace amp::trace;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s TRACE_DIR RANKS\n", argv[0]);
    return 2;
  }
  int failures = 0;
  try {
    TraceSet set = locate_trace(argv[1]);
    validate_trace(set);
    if (static_cast<int>(set.bin_paths.size()) != std::atoi(argv[2])) ++failures;
    for (const std::string& path : set.bin_paths) {
      TraceFile file = TraceFile::open(path);
      std::map<int, std::map<unsigned, int>> per_thread;
      std::set<std::int64_t> request_ids;
      std::map<std::int64_t, int> thread_of_request;
      std::set<std::int64_t> completed;
      auto cursor = file.records();
      while (auto r = cursor.next()) {
        ++per_thread[r->thread][r->function];
        if (r->function == kIsend || r->function == kIrecv) {
          thread_of_request[r->scalar("request")] = r->thread;
          if (!request_ids.insert(r->scalar("request")).second) {
            std::fprintf(stderr, "FAILED: %s: request id %lld used twice\n", path.c_str(),
                         static_cast<long long>(r->scalar("request")));
            ++failures;
          }
        }
        if (r->function == kWaitall) {
          for (std::int32_t id : r->field("requests")->values) {
            auto started = thread_of_request.find(id);
            if (started == thread_of_request.end() || started->second != r->thread || !completed.insert(id).second) {
              std::fprintf(stderr, "FAILED: %s: thread %d's Waitall completes request %d (started by thread %d)%s\n",
                           path.c_str(), r->thread, id, started == thread_of_request.end() ? -1 : started->second,
                           completed.count(id) ? ", a second time" : "");
              ++failures;
            }
          }
        }
      }
      for (int thread : {1, 2}) {
        auto& calls = per_thread[thread];
        if (calls[kIsend] != 200 || calls[kIrecv] != 200 || calls[kWaitall] != 200) {
          std::fprintf(stderr, "FAILED: %s: thread %d has %d Isend, %d Irecv, %d Waitall (want 200 each)\n",
                       path.c_str(), thread, calls[kIsend], calls[kIrecv], calls[kWaitall]);
          ++failures;
        }
      }
      if (per_thread[0][kInitThread] != 1 || per_thread[0][kFinalize] != 1) {
        std::fprintf(stderr, "FAILED: %s: Init_thread/Finalize not on the main thread (0)\n", path.c_str());
        ++failures;
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "FAILED: %s\n", error.what());
    return 1;
  }
  if (failures == 0) std::printf("MPI_THREAD_MULTIPLE trace checked\n");
  return failures == 0 ? 0 : 1;
}
