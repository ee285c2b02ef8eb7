// SPDX-License-Identifier: BSD-3-Clause
// Trace file naming: the libdumpi-compatible prefix chosen once on rank 0, broadcast inside
// MPI_Init, plus the .meta file that replayers open first.
#include <amp/trace/writer/mpi_backend.hpp>
#include <amp/trace/writer/trace_naming.hpp>

#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace amp::trace {

std::string TraceNames::bin_path(int rank) const {
  char digits[16];
  std::snprintf(digits, sizeof(digits), "%04d", rank);
  return directory + "/" + prefix + "-" + digits + ".bin";
}

std::string TraceNames::meta_path() const { return directory + "/" + prefix + ".meta"; }

namespace {

// The name of a traced run's .meta already in `directory`, or "": a second trace there would leave a folder
// that a simulation, which reads one trace per folder, cannot take.
std::string held_meta(const std::string& directory) {
  std::string found;
  if (DIR* folder = ::opendir(directory.c_str())) {
    while (const dirent* entry = ::readdir(folder)) {
      const std::string name = entry->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".meta") == 0) {
        found = name;
        break;
      }
    }
    ::closedir(folder);
  }
  return found;
}

bool path_exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

void make_directories(const std::string& directory) {
  for (std::size_t slash = directory.find('/', 1);; slash = directory.find('/', slash + 1)) {
    std::string part = directory.substr(0, slash);
    if (!part.empty()) ::mkdir(part.c_str(), 0777);  // failures show up when the files are opened
    if (slash == std::string::npos) break;
  }
}

std::string timestamp_prefix(std::time_t start) {
  std::tm local{};
  localtime_r(&start, &local);
  char text[64];
  std::strftime(text, sizeof(text), "dumpi-%Y.%m.%d.%H.%M.%S", &local);
  return text;
}

}  // namespace

TraceNames agree_on_trace_names(const std::string& directory, const std::string& requested_prefix, int rank) {
  TraceNames names;
  names.directory = directory;
  std::uint64_t start = 0;
  std::string prefix;
  if (rank == 0) {
    start = static_cast<std::uint64_t>(std::time(nullptr));
    struct stat link;
    std::string folder = directory;
    while (folder.size() > 1 && folder.back() == '/') folder.pop_back();  // "link/" would follow the link
    if (::lstat(folder.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      names.refusal = "trace folder '" + directory +
                      "' is a symbolic link; the library never writes through a link "
                      "(give the folder itself)";
    } else {
      make_directories(directory);
      const std::string held = held_meta(directory);
      if (!held.empty())
        names.refusal = "trace folder '" + directory + "' already holds a traced run ('" + held +
                        "'); give a new or empty folder (a simulation reads one trace per folder)";
    }
    std::string base = requested_prefix.empty() ? timestamp_prefix(static_cast<std::time_t>(start)) : requested_prefix;
    prefix = base;
    TraceNames probe;
    probe.directory = directory;
    int size = 1;
    backend::Comm_size(MPI_COMM_WORLD, &size);
    auto taken = [&probe, size] {  // any file of this run's names: its .meta or any rank's .bin
      if (path_exists(probe.meta_path())) return true;
      for (int r = 0; r < size; ++r)
        if (path_exists(probe.bin_path(r))) return true;
      return false;
    };
    for (int attempt = 2;; ++attempt) {
      probe.prefix = prefix;
      if (!taken()) break;
      prefix = base + "." + std::to_string(attempt);
    }
    if (prefix != base)
      names.notice = "amp_dumpi: a trace named '" + base + "' already exists in " + directory + "; writing '" + prefix +
                     "' instead";
  }
  std::uint64_t shared[2] = {start, prefix.size()};
  backend::Bcast(shared, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  prefix.resize(static_cast<std::size_t>(shared[1]));
  backend::Bcast(prefix.data(), static_cast<int>(shared[1]), MPI_CHAR, 0, MPI_COMM_WORLD);
  names.start_time_epoch = shared[0];
  names.prefix = prefix;
  return names;
}

std::string creation_problem(const std::string& directory, int error) {
  std::string reason = std::strerror(error);
  struct stat link;
  char target[4096];
  if (error == ENOENT && ::lstat(directory.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && !path_exists(directory)) {
    const ssize_t length = ::readlink(directory.c_str(), target, sizeof(target) - 1);
    if (length > 0)
      reason += " ('" + directory + "' is a symbolic link to '" +
                std::string(target, static_cast<std::size_t>(length)) + "', which does not exist)";
  }
  return reason;
}

int write_meta_file(const TraceNames& names, int numprocs, const std::string& hostname, const std::string& username,
                    const std::string& extra_lines) {
  int fd = ::open(names.meta_path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  std::string text = "hostname=" + hostname + "\nnumprocs=" + std::to_string(numprocs) + "\nusername=" + username +
                     "\nstartime=" + std::to_string(names.start_time_epoch) + "\nfileprefix=" + names.prefix +
                     "\nversion=13\nsubversion=0\nsubsubversion=0\n" + extra_lines;
  ssize_t written = ::write(fd, text.data(), text.size());
  int error = written == static_cast<ssize_t>(text.size()) ? 0 : (errno != 0 ? errno : EIO);
  if (::close(fd) != 0 && error == 0) error = errno;
  return error;
}

}  // namespace amp::trace
