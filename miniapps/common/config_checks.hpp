// Small pieces every proxy's configuration validation uses: case-folding of text flags, a check
// that throws InputError with its message, and the --comm_method and --transport names checked against
// the registries (whether the pair fits is checked once the run's context is known: combination_check.hpp).
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

// The registered strategy named by `text` (any case); InputError listing the known ones otherwise.
// `also` is appended to the list of choices (e.g. miniGhost's numeric codes).
inline std::string checked_comm_method(const std::string& text, const std::string& also = "") {
  const std::string name = lowercase(text);
  if (!comm::is_strategy(name)) {
    throw InputError("unknown comm_method '" + text + "' (use " + comm::strategy_list() + also + ")");
  }
  return name;
}

// The registered transport named by `text` (any case); InputError listing the known ones otherwise.
inline std::string checked_transport(const std::string& text) {
  const std::string name = lowercase(text);
  if (comm::find_transport(name) == nullptr)
    throw InputError("unknown transport '" + name + "' (use " + comm::transport_list() + ")");
  return name;
}

}  // namespace amp
