// SPDX-License-Identifier: BSD-3-Clause
// Bytes to a file, all of them or an OutputWriteError with the system's own reason (errno taken
// where the call failed, never a stale one): what amp-trace's outputs are written with.
#pragma once

#include <string>
#include <string_view>

namespace amp::trace {

// Writes every byte to `fd`, retrying short writes and EINTR; `name` is the file the message names
// (`NAME: write failed: REASON`).
void write_fully(int fd, std::string_view bytes, const std::string& name);

// Appends `bytes` to `path` (created when missing) and closes it again; a failed open, write or
// close is an OutputWriteError naming `name`.
void append_to_file(const std::string& path, std::string_view bytes, const std::string& name);

}  // namespace amp::trace
