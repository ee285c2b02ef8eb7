// SPDX-License-Identifier: BSD-3-Clause
// SIGINT, SIGTERM and SIGHUP in a proxy: a stopped run leaves nothing half-written. A real run removes
// the files it reserved (its results file's .partial) in the handler and then dies by the same signal,
// so that whoever started it sees a signal death. A synthesis defers the signal instead: it stops at its
// next check (between virtual ranks, at each modelled compute step), its own clean-up removes the
// staging folder, and run_proxy then dies by the signal.
#pragma once

#include <string>

namespace amp::stop_signals {

// A file to unlink if the process is stopped (installs the handlers the first time; a signal the
// process was started ignoring stays ignored). At most kMaxFiles at once; longer paths are not kept.
constexpr int kMaxFiles = 8;
void remove_on_stop(const std::string& path);
// The file was published or removed: a stop no longer touches it.
void keep_on_stop(const std::string& path);

// From now on a SIGINT or SIGTERM (or SIGHUP) is only noted (pending()), over any handler installed
// before (a staged folder's RemovedOnSignal), for a caller that checks it and throws
// Stopped, which run_proxy turns into die_by once the stack has unwound (no std::exception: nothing on
// the way catches it as an error).
struct Stopped {
  int signal;
};
void defer();
// The noted signal, 0 when none came.
int pending();
// Dies by `signal` with its default action (after the registered files are removed).
[[noreturn]] void die_by(int signal);

}  // namespace amp::stop_signals
