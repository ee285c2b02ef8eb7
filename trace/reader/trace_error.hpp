// The one exception type the reader throws for input that is not a readable DUMPI trace;
// its message is a single line naming the file and, where known, the byte offset.
#pragma once

#include <stdexcept>
#include <string>

namespace amp::trace {

class TraceFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace amp::trace
