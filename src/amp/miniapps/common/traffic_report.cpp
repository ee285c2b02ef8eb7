// SPDX-License-Identifier: BSD-3-Clause
// The histogram reduction and the min/avg/max text used by every proxy's report.
#include <amp/miniapps/common/traffic_report.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <vector>

namespace amp {

nlohmann::json size_histogram_json(MPI_Comm comm, const comm::Traffic& traffic) {
  std::vector<std::uint64_t> global(comm::Traffic::kBuckets);
  MPI_Allreduce(traffic.size_histogram.data(), global.data(), comm::Traffic::kBuckets, MPI_UINT64_T, MPI_SUM, comm);
  nlohmann::json rows = nlohmann::json::array();
  for (int b = 0; b < comm::Traffic::kBuckets; ++b) {
    if (global[b] == 0) continue;
    rows.push_back({{"min_bytes", comm::Traffic::bucket_low(b)},
                    {"max_bytes", b == 0 ? 0 : (std::uint64_t{1} << b) - 1},
                    {"count", global[b]}});
  }
  return rows;
}

std::string format_min_avg_max(const nlohmann::json& stats, const char* unit, double scale) {
  return fmt::format("min {:.4g} avg {:.4g} max {:.4g}{}", stats["min"].get<double>() * scale,
                     stats["avg"].get<double>() * scale, stats["max"].get<double>() * scale, unit);
}

}  // namespace amp
