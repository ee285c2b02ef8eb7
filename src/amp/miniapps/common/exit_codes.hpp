// SPDX-License-Identifier: BSD-3-Clause
// The exit codes of every AMP proxy and amp-micro, in one place (README "Exit codes and failures"
// lists them with amp-trace's and the ./amp driver's, and what each failure leaves on disk).
#pragma once

namespace amp {

enum class ExitCode : int {
  kSuccess = 0,
  kVerificationFailed = 1,  // the proxy's own answer check failed (every rank)
  kBadInput = 2,            // refused at start-up: flags, deck, sizes, environment (one line, every rank)
  kAborted = 3,             // anything else, possibly one rank's alone: MPI_Abort
  kResultsNotWritten = 4,   // the answer was good, but the results (or CSV) file could not be written
  kTraceNotWritten = 5,     // the answer was good, but the DUMPI trace is incomplete
  // refused at start-up because the strategy and transport, both known, do not go together here (the
  // transport does not fit the strategy, or needs a newer MPI); scripts skip such a pair on this code
  kCombinationRefused = 6,
};

inline int exit_status(ExitCode code) { return static_cast<int>(code); }

}  // namespace amp
