// SPDX-License-Identifier: BSD-3-Clause
// What the usual DUMPI replayer (SST-macro 16.0's parsedumpi) cannot replay, as data: the calls it
// does not implement (one table, with the reason it gives) and the datatype sizes it can stand in
// for; used by `amp-trace check`.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace amp::trace {

// The reason SST-macro cannot replay calls with this function id, or nothing when it can.
std::optional<std::string_view> unreplayable_reason(unsigned function_id);

// The function ids of the table, in id order (for documentation and tests).
const std::vector<unsigned>& unreplayable_functions();

// Whether replayers cope with a datatype id no recorded call created when the sizes block gives it
// this size. SST-macro's parsedumpi (getMpitype) replays such an id as its built-in type of that
// size and has built-ins of 1, 2, 4, 6, 8, 12, 16, 20, 32, 48 and 64 bytes only. (CODES reads no sizes
// block; the copy amp-trace codes writes for it counts in MPI_BYTEs.) (libdumpi and libamp_dumpi number predefined
// types DUMPI has no constant for, such as MPI_INT64_T, from 28 too.)
bool replayers_substitute_datatype_of_size(std::int32_t size);

}  // namespace amp::trace
