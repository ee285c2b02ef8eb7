// SPDX-License-Identifier: BSD-3-Clause
// Error kinds every proxy distinguishes: bad input found identically on every rank, a failed
// self-check, an output file that could not be written, and anything else (which may be one rank's
// alone and so must abort the job). run_proxy maps them to the codes in exit_codes.hpp.
#pragma once

#include <stdexcept>
#include <string>

namespace amp {

// Bad input (flags, deck, sizes). Thrown by validation that runs identically on every rank, so every
// rank throws it and every rank can exit cleanly with the same one-line message.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bad input of one kind: a known strategy and a known transport that do not go together with this
// MPI (comm::combination_refusal). Exit 6, not 2, so that scripts skip the pair without reading text.
struct CombinationRefused : InputError {
  using InputError::InputError;
};

// The proxy's own answer check failed. Decided from globally reduced values, so again every rank
// throws it together.
struct VerificationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The results (or CSV) file could not be written at the end of a good run. Rank 0 writes and tells
// every rank, so every rank throws it together; only rank 0's message is printed (exit 4).
struct ResultsFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A synthesis could not complete its trace's .meta (exit 5; a real run's trace failures are reported
// by the tracing library after MPI_Finalize).
struct TraceFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace amp
