// SPDX-License-Identifier: BSD-3-Clause
// RemovedOnSignal: the handler may only make async-signal-safe calls, so it removes the folder with
// openat, getdents64, unlinkat and close on buffers of its own stack (no allocation, no stdio), then
// restores the default action and raises the signal again.
#include <amp/trace/reader/removed_on_signal.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace amp::trace {

namespace {

constexpr int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSignalCount = sizeof(kEndingSignals) / sizeof(int);
constexpr int kDeepest = 16;  // folders inside folders: amp-trace's outputs are two deep

// The one staged path of this process and the handlers there were before ours (process-wide by
// nature: a signal handler has nothing else to read).
char staged_path[4096];
volatile std::sig_atomic_t armed = 0;
struct sigaction previous[kSignalCount];
bool installed[kSignalCount] = {};

bool is_dot_or_dotdot(const char* name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

// Removes `name` under the folder `parent` (a descriptor): a file at once, a folder after its
// entries. True when it is gone.
bool remove_tree(int parent, const char* name, int depth) {
  if (::unlinkat(parent, name, 0) == 0) return true;
  if ((errno != EISDIR && errno != EPERM) || depth > kDeepest) return errno == ENOENT;
  const int folder = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder >= 0) {
    // Read from the start again after each batch: entries removed while reading may shift the rest.
    for (bool removed = true; removed;) {
      removed = false;
      ::lseek(folder, 0, SEEK_SET);
      char entries[4096];
      const ssize_t length = ::getdents64(folder, entries, sizeof(entries));
      for (ssize_t at = 0; at < length;) {
        const auto* entry = reinterpret_cast<const struct dirent64*>(entries + at);
        at += entry->d_reclen;
        if (!is_dot_or_dotdot(entry->d_name) && remove_tree(folder, entry->d_name, depth + 1)) removed = true;
      }
    }
    ::close(folder);
  }
  return ::unlinkat(parent, name, AT_REMOVEDIR) == 0;
}

void remove_then_end(int signal_number) {
  const int saved_errno = errno;
  if (armed != 0) remove_tree(AT_FDCWD, staged_path, 0);
  errno = saved_errno;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal_number, &action, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
  ::raise(signal_number);  // the default action: the process ends by this signal
}

}  // namespace

RemovedOnSignal::RemovedOnSignal(const std::string& path) {
  if (path.size() >= sizeof(staged_path)) throw std::runtime_error(path + ": the path is too long");
  std::memcpy(staged_path, path.c_str(), path.size() + 1);
  armed = 1;
  for (int i = 0; i < kSignalCount; ++i) {
    // A signal the parent ignored (nohup, `trap '' TERM`) stays ignored: it would not end the process.
    if (::sigaction(kEndingSignals[i], nullptr, &previous[i]) != 0 || previous[i].sa_handler == SIG_IGN) continue;
    struct sigaction action;
    std::memset(&action, 0, sizeof(action));
    action.sa_handler = remove_then_end;
    sigemptyset(&action.sa_mask);
    for (int other : kEndingSignals) sigaddset(&action.sa_mask, other);  // one removal at a time
    installed[i] = ::sigaction(kEndingSignals[i], &action, nullptr) == 0;
  }
}

RemovedOnSignal::~RemovedOnSignal() {
  for (int i = 0; i < kSignalCount; ++i)
    if (installed[i]) {
      ::sigaction(kEndingSignals[i], &previous[i], nullptr);
      installed[i] = false;
    }
  armed = 0;
}

}  // namespace amp::trace
