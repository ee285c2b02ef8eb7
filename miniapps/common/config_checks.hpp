// Small pieces every proxy's configuration validation uses: case-folding of text flags, a check
// that throws InputError with its message, and the --transport check against the registry.
#pragma once

#include "errors.hpp"

#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <algorithm>
#include <cctype>
#include <string>

namespace amp {

inline std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

inline void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

// The registered transport named by `text` (any case) when it fits `strategy` with this MPI;
// CombinationRefused when both are known but do not go together here, InputError otherwise (both
// naming the transports that fit).
inline std::string checked_transport(const std::string& text, const std::string& strategy) {
  const std::string name = lowercase(text);
  const std::string refusal = comm::combination_refusal(name, strategy);
  if (!refusal.empty()) throw CombinationRefused(refusal);
  const std::string problem = comm::transport_problem(name, strategy);
  if (!problem.empty()) throw InputError(problem);
  return name;
}

}  // namespace amp
