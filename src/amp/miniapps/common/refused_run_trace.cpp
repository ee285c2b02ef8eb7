// SPDX-License-Identifier: BSD-3-Clause
// Finding this rank's trace file through /proc/self/fd (the library opened it in MPI_Init), and
// removing it, the .meta and the folders the library made, all before MPI_Finalize.
#include <amp/miniapps/common/refused_run_trace.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <mpi.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

namespace amp {

namespace fs = std::filesystem;

RefusedRunTrace::RefusedRunTrace(const std::string& directory) {
  std::error_code error;
  const fs::path absolute = fs::absolute(directory, error).lexically_normal();
  directory_ = absolute.string();
  for (fs::path folder = absolute; !folder.empty() && folder != folder.parent_path() && !fs::exists(folder, error);
       folder = folder.parent_path())
    missing_folders_.push_back(folder.string());
}

void RefusedRunTrace::remove(int rank, MPI_Comm comm) const {
  std::error_code error;
  const fs::path folder = fs::weakly_canonical(directory_, error);
  char suffix[32];
  std::snprintf(suffix, sizeof(suffix), "-%04d.bin", rank);
  std::string meta_path;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd", error)) {
    const fs::path target = fs::read_symlink(entry.path(), error);
    const std::string name = target.filename().string();
    if (error || target.parent_path() != folder || name.size() <= std::string(suffix).size() ||
        name.compare(name.size() - std::string(suffix).size(), std::string::npos, suffix) != 0)
      continue;
    ::unlink(target.c_str());
    meta_path = (folder / (name.substr(0, name.size() - std::string(suffix).size()) + ".meta")).string();
  }
  amp_dumpi_discard();
  MPI_Barrier(comm);  // every .bin is gone before rank 0 removes the folders
  if (rank != 0 || meta_path.empty()) return;
  ::unlink(meta_path.c_str());
  for (const auto& folder_name : missing_folders_) ::rmdir(folder_name.c_str());  // only if empty
}

}  // namespace amp
