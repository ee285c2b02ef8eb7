// Error kinds every proxy distinguishes: bad input found identically on every rank, a failed
// self-check, and anything else (which may be one rank's alone and so must abort the job).
#pragma once

#include <stdexcept>
#include <string>

namespace amp {

// Bad input (flags, deck, sizes). Thrown by validation that runs identically on every rank, so every
// rank throws it and every rank can exit cleanly with the same one-line message.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The proxy's own answer check failed. Decided from globally reduced values, so again every rank
// throws it together.
struct VerificationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace amp
