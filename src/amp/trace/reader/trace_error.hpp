// SPDX-License-Identifier: BSD-3-Clause
// The exceptions amp-trace's readers and writers throw: input that is not a readable DUMPI trace
// (TraceFormatError), and an output that could not be written whole (OutputWriteError). Each
// message is a single line naming the file and, where known, the byte offset or the system's reason.
#pragma once

#include <stdexcept>
#include <string>

namespace amp::trace {

class TraceFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file (or standard output) amp-trace was writing could not be written whole: a full disk, an
// I/O error. Nothing partial is left under the output's name.
class OutputWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace amp::trace
