// SPDX-License-Identifier: BSD-3-Clause
// The SIGINT/SIGTERM/SIGHUP handler, the fixed table of files it removes and the handlers it hands the
// signal on to. The table is process-wide on purpose: a signal handler can reach nothing else, and may
// only call async-signal-safe functions (unlink, sigaction, raise), so the paths are kept as plain
// characters, written before they are marked.
#include <amp/miniapps/common/stop_signals.hpp>

#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace amp::stop_signals {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(int);
constexpr std::size_t kMaxPath = 4096;

struct StopTable {
  char paths[kMaxFiles][kMaxPath] = {};
  volatile std::sig_atomic_t used[kMaxFiles] = {};
  volatile std::sig_atomic_t deferring = 0;
  volatile std::sig_atomic_t noted = 0;
  bool installed = false;
  bool ignored[kSignalCount] = {};               // as the process was started: left alone
  struct sigaction previous[kSignalCount] = {};  // whoever had the signal before (the tracer's handler)
};

StopTable& table() {
  static StopTable t;
  return t;
}

void remove_files() {
  StopTable& t = table();
  for (int i = 0; i < kMaxFiles; ++i)
    if (t.used[i] != 0) ::unlink(t.paths[i]);
}

void on_stop(int signal) {
  StopTable& t = table();
  if (t.deferring != 0) {
    if (t.noted == 0) t.noted = signal;
    return;
  }
  die_by(signal);
}

// Ours on every signal the process was not started ignoring; `again`: over handlers set since.
void install(bool again = false) {
  StopTable& t = table();
  if (t.installed && !again) return;
  if (!t.installed) {
    for (int i = 0; i < kSignalCount; ++i)
      t.ignored[i] = ::sigaction(kSignals[i], nullptr, &t.previous[i]) != 0 || t.previous[i].sa_handler == SIG_IGN;
  }
  t.installed = true;
  for (int i = 0; i < kSignalCount; ++i) {
    const int signal = kSignals[i];
    if (t.ignored[i]) continue;
    struct sigaction handler {};
    handler.sa_handler = on_stop;
    sigemptyset(&handler.sa_mask);
    for (const int other : kSignals) sigaddset(&handler.sa_mask, other);
    ::sigaction(signal, &handler, nullptr);
  }
}

}  // namespace

void remove_on_stop(const std::string& path) {
  install();
  StopTable& t = table();
  if (path.size() >= kMaxPath) return;
  for (int i = 0; i < kMaxFiles; ++i)
    if (t.used[i] == 0) {
      std::memcpy(t.paths[i], path.c_str(), path.size() + 1);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the path is whole before it is marked
      t.used[i] = 1;
      return;
    }
}

void keep_on_stop(const std::string& path) {
  StopTable& t = table();
  for (int i = 0; i < kMaxFiles; ++i)
    if (t.used[i] != 0 && path == t.paths[i]) t.used[i] = 0;
}

void defer() {
  install(/*again=*/true);
  table().deferring = 1;
}

int pending() { return table().noted; }

void die_by(int signal) {
  remove_files();
  // On to whoever had the signal before (the tracing library finishes its trace file, then ends the
  // process); by default the process ends.
  StopTable& t = table();
  struct sigaction next {};
  next.sa_handler = SIG_DFL;
  sigemptyset(&next.sa_mask);
  for (int i = 0; i < kSignalCount; ++i)
    if (kSignals[i] == signal && t.installed) next = t.previous[i];
  ::sigaction(signal, &next, nullptr);
  sigset_t unblocked;
  sigemptyset(&unblocked);
  sigaddset(&unblocked, signal);
  ::raise(signal);
  ::sigprocmask(SIG_UNBLOCK, &unblocked, nullptr);  // inside the handler: delivered here
  ::signal(signal, SIG_DFL);                        // a previous handler that returned: end by default
  ::raise(signal);
  ::_exit(128 + signal);  // not reached
}

}  // namespace amp::stop_signals
