// SPDX-License-Identifier: BSD-3-Clause
// A Kokkos tools library that counts what a run launches: parallel_for / reduce / scan kernels and
// fences, by name, per process. Load it with KOKKOS_PROFILE_LIBRARY=.../libamp-kokkos-launch-counter.so;
// at Kokkos::finalize it appends one JSON line per process to $AMP_LAUNCH_COUNTS (default: stderr).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace {

struct Counts {
  std::mutex mutex;
  std::map<std::string, std::uint64_t> by_name;  // "for:amp::pack_rows", "fence:...", ...
};

Counts& counts() {
  static Counts c;
  return c;
}

void count(const char* kind, const char* name) {
  Counts& c = counts();
  const std::lock_guard<std::mutex> lock(c.mutex);
  ++c.by_name[std::string(kind) + ":" + (name != nullptr ? name : "")];
}

}  // namespace

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {}

void kokkosp_finalize_library() {
  const char* path = std::getenv("AMP_LAUNCH_COUNTS");
  std::FILE* out = path != nullptr ? std::fopen(path, "a") : stderr;
  if (out == nullptr) return;
  std::string line = "{";
  for (const auto& [name, n] : counts().by_name) {
    std::string escaped;
    for (const char ch : name) {
      if (ch == '"' || ch == '\\') escaped += '\\';
      escaped += ch;
    }
    line += (line.size() > 1 ? ", \"" : "\"") + escaped + "\": " + std::to_string(n);
  }
  std::fprintf(out, "%s}\n", line.c_str());
  if (out != stderr) std::fclose(out);
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) {
  count("for", name);
  *id = 0;
}
void kokkosp_end_parallel_for(std::uint64_t) {}
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) {
  count("reduce", name);
  *id = 0;
}
void kokkosp_end_parallel_reduce(std::uint64_t) {}
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) {
  count("scan", name);
  *id = 0;
}
void kokkosp_end_parallel_scan(std::uint64_t) {}
void kokkosp_begin_fence(const char* name, std::uint32_t, std::uint64_t* id) {
  count("fence", name);
  *id = 0;
}
void kokkosp_end_fence(std::uint64_t) {}

}  // extern "C"
