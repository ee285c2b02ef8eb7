// SPDX-License-Identifier: BSD-3-Clause
// The node's free memory (meminfo, cgroup v2) and the collective check of a run's estimate against it.
#include <amp/miniapps/common/memory_check.hpp>

#include <amp/miniapps/common/errors.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace amp {

namespace {

// "MemAvailable:   1234 kB" -> bytes.
std::uint64_t meminfo_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

// Room left under a limit file and a usage file (cgroup v2 memory.max / memory.current, v1
// memory.limit_in_bytes / memory.usage_in_bytes); 0 when unlimited ("max") or unreadable.
std::uint64_t room_under(const std::string& limit_path, const std::string& usage_path) {
  std::ifstream limit_file(limit_path), usage_file(usage_path);
  std::string limit_text;
  std::uint64_t usage = 0;
  std::uint64_t limit = 0;
  if (!(limit_file >> limit_text) || !(std::istringstream(limit_text) >> limit) || !(usage_file >> usage)) return 0;
  return limit > usage ? limit - usage : 1;
}

// This process's memory cgroup (v2 "0::/path" or v1 "N:memory:/path"): the room left under its
// limit, looked up at the group's path and at the mount root (a container sees its own group there).
std::uint64_t cgroup_room() {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  std::uint64_t room = 0;
  auto consider = [&](std::uint64_t r) {
    if (r != 0 && (room == 0 || r < room)) room = r;
  };
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) == 0) {
      const std::string group = line.substr(3);
      for (const std::string& dir : {"/sys/fs/cgroup" + group, std::string("/sys/fs/cgroup")}) {
        consider(room_under(dir + "/memory.max", dir + "/memory.current"));
      }
    }
    const auto v1 = line.find(":memory:");
    if (v1 != std::string::npos) {
      const std::string group = line.substr(v1 + 8);
      for (const std::string& dir : {"/sys/fs/cgroup/memory" + group, std::string("/sys/fs/cgroup/memory")}) {
        consider(room_under(dir + "/memory.limit_in_bytes", dir + "/memory.usage_in_bytes"));
      }
    }
  }
  return room;
}

std::string gib(double bytes) {
  const double g = bytes / (1024.0 * 1024.0 * 1024.0);
  return g >= 10 ? fmt::format("{:.0f}", g) : fmt::format("{:.1f}", g);
}

}  // namespace

std::uint64_t node_available_bytes() {
  const std::uint64_t available = meminfo_available(), room = cgroup_room();
  if (available == 0) return room;
  return room == 0 ? available : std::min(available, room);
}

void check_node_memory(MPI_Comm comm, double bytes_per_rank, bool one_rank_at_a_time) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks_here = 1;
  MPI_Comm_size(node, &ranks_here);
  MPI_Comm_free(&node);
  if (one_rank_at_a_time) ranks_here = 1;
  const double available = static_cast<double>(node_available_bytes());
  // The node with the least memory per rank decides; its numbers go into the message.
  struct {
    double per_rank;
    int rank;
  } mine{available > 0 ? available / ranks_here : 1e300, 0}, worst{};
  MPI_Comm_rank(comm, &mine.rank);
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
  double worst_node[2] = {available, static_cast<double>(ranks_here)};
  MPI_Bcast(worst_node, 2, MPI_DOUBLE, worst.rank, comm);
  if (bytes_per_rank <= worst.per_rank) return;
  const int ranks = static_cast<int>(worst_node[1]);
  throw InputError(fmt::format("not enough memory: needs {} GiB per rank, this node has {} GiB{}", gib(bytes_per_rank),
                               gib(worst_node[0]), ranks > 1 ? fmt::format(" for {} ranks", ranks) : ""));
}

}  // namespace amp
