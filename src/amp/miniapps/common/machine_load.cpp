// SPDX-License-Identifier: BSD-3-Clause
// /proc/loadavg, /proc/stat and getrusage read at start and end of a run; the ranks' CPU time summed.
#include <amp/miniapps/common/machine_load.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace amp {

namespace {

double load_average_now() {
  std::ifstream file("/proc/loadavg");
  double one_minute = 0;
  file >> one_minute;
  return one_minute;
}

double node_busy_seconds_now() {
  std::ifstream file("/proc/stat");
  std::string label;
  file >> label;
  if (label != "cpu") return 0;
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice)
  double ticks[8] = {};
  for (double& t : ticks) file >> t;
  const double busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7];
  return busy / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double own_cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double wall_seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

MachineLoadStart machine_load_start() {
  return {load_average_now(), node_busy_seconds_now(), own_cpu_seconds_now(), wall_seconds_now()};
}

nlohmann::json machine_load_json(MPI_Comm comm, const MachineLoadStart& start) {
  const double own = own_cpu_seconds_now() - start.own_cpu_seconds;
  double all_ranks = 0;
  MPI_Reduce(&own, &all_ranks, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  const double node_busy = node_busy_seconds_now() - start.node_busy_seconds;
  return {{"load_average_start", start.load_average},
          {"load_average_end", load_average_now()},
          {"other_cpu_seconds", std::max(0.0, node_busy - all_ranks)},
          {"wall_seconds", wall_seconds_now() - start.wall_seconds},
          {"cores", static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN))}};
}

}  // namespace amp
