// Which recorded MPI calls the usual DUMPI replayer (SST-macro 16.0's parsedumpi) cannot replay, as
// data: one table, with the reason SST-macro gives, used by `amp-trace check`.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace amp::trace {

// The reason SST-macro cannot replay calls with this function id, or nothing when it can.
std::optional<std::string_view> unreplayable_reason(unsigned function_id);

// The function ids of the table, in id order (for documentation and tests).
const std::vector<unsigned>& unreplayable_functions();

}  // namespace amp::trace
