// SPDX-License-Identifier: BSD-3-Clause
// The int range check of every count and displacement a transport hands to MPI.
#include <amp/comm/transports/checked_count.hpp>

#include <limits>
#include <stdexcept>
#include <string>

namespace amp::comm {

int checked_count(std::int64_t value, const char* transport, const char* what) {
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    throw std::length_error(std::string(transport) + " transport: " + what + " " + std::to_string(value) +
                            " does not fit an MPI int (at most " + std::to_string(std::numeric_limits<int>::max()) +
                            ")");
  return static_cast<int>(value);
}

}  // namespace amp::comm
