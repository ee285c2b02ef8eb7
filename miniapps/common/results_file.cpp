// JSON results output (rank 0 only); the path was checked with check_results_path at start-up.
#include "results_file.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace amp {

void write_results_file(const std::string& path, const nlohmann::json& results, int rank) {
  if (path.empty() || rank != 0) return;
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial);
    out << results.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write results file '" + partial + "'");
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename '" + partial + "' to '" + path + "'");
  }
}

}  // namespace amp
