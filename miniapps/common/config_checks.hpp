// Small pieces every proxy's configuration validation uses: case-folding of text flags, a check
// that throws InputError with its message, and the --transport name checked against the registry (whether
// the pair fits is checked once the run's context is known: combination_check.hpp).
#pragma once

#include <amp/miniapps/common/errors.hpp>

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

// The registered transport named by `text` (any case); InputError listing the known ones otherwise.
inline std::string checked_transport(const std::string& text) {
  const std::string name = lowercase(text);
  if (comm::find_transport(name) == nullptr)
    throw InputError("unknown transport '" + name + "' (use " + comm::transport_list() + ")");
  return name;
}

}  // namespace amp
