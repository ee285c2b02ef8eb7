// Writes a proxy's JSON results on rank 0, to a temporary name first and then renamed, so a
// reader never sees half a file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace amp {

void write_results_file(const std::string& path, const nlohmann::json& results, int rank);

}  // namespace amp
