// SPDX-License-Identifier: BSD-3-Clause
// A staging path that SIGINT, SIGTERM or SIGHUP must not leave behind: while one of these objects
// lives, such a signal first removes the path (a file or a whole folder), then ends the process by
// that same signal, as it would have ended without it. Signals the parent ignored stay ignored.
#pragma once

#include <string>

namespace amp::trace {

class RemovedOnSignal {
 public:
  // One at a time per process (amp-trace stages one output); the path is kept as given (relative
  // paths are resolved against the working directory when the signal comes).
  explicit RemovedOnSignal(const std::string& path);
  // Restores the signal dispositions there were before.
  ~RemovedOnSignal();
  RemovedOnSignal(const RemovedOnSignal&) = delete;
  RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;
};

}  // namespace amp::trace
