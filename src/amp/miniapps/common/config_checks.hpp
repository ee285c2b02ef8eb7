// SPDX-License-Identifier: BSD-3-Clause
// Small pieces every proxy's configuration validation uses: case-folding of text flags and a check
// that throws InputError with its message (the strategy and transport names are checked once, with
// whether the pair fits, when the run's context is known: combination_check.hpp).
#pragma once

#include <amp/miniapps/common/errors.hpp>

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

}  // namespace amp
