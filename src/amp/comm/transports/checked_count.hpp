// SPDX-License-Identifier: BSD-3-Clause
// MPI's counts and displacements are int: every transport narrows its element counts through here, so
// a count above INT_MAX is a one-line error naming the transport, never a silent wrap.
#pragma once

#include <cstdint>

namespace amp::comm {

// `value` as an int. Throws std::length_error "<transport> transport: <what> <value> does not fit an
// MPI int (at most 2147483647)" when it is out of int's range.
int checked_count(std::int64_t value, const char* transport, const char* what);

}  // namespace amp::comm
