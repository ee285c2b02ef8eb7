// SPDX-License-Identifier: BSD-3-Clause
// amp_dumpi_trace_into: a program that links the library hands it its trace folder
// before MPI_Init, as the proxies do with --trace, and the library traces there without AMP_TRACE_DIR
// being set in the process (the proxies no longer setenv their own environment); amp_dumpi_trace_directory
// names that folder, and AMP_TRACE_DIR's where none was handed over. Usage: trace_into_test DIR
// (DIR must not exist yet; the test leaves it with the trace in it).
#include <amp/trace/writer/amp_dumpi.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "trace_into_test: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return fail("usage: trace_into_test DIR");
  const std::filesystem::path folder = argv[1];
  std::filesystem::remove_all(folder);
  setenv("AMP_TRACE_DIR", "from-the-environment", 1);
  if (std::string(amp_dumpi_trace_directory()) != "from-the-environment")
    return fail(std::string("amp_dumpi_trace_directory gave '") + amp_dumpi_trace_directory() +
                "', not AMP_TRACE_DIR's");
  unsetenv("AMP_TRACE_DIR");
  if (std::string(amp_dumpi_trace_directory()) != "") return fail("amp_dumpi_trace_directory named a folder of none");
  amp_dumpi_trace_into(folder.c_str(), "--trace");
  if (amp_dumpi_trace_directory() != folder.string())
    return fail(std::string("amp_dumpi_trace_directory gave '") + amp_dumpi_trace_directory() +
                "', not the folder handed over");
  MPI_Init(&argc, &argv);
  const bool active = amp_dumpi_active() == 1;
  const bool environment_untouched = std::getenv("AMP_TRACE_DIR") == nullptr;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (!active) return fail("amp_dumpi_trace_into before MPI_Init did not switch tracing on");
  if (!environment_untouched) return fail("AMP_TRACE_DIR appeared in the process's environment");
  int bins = 0, metas = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    bins += entry.path().extension() == ".bin";
    metas += entry.path().extension() == ".meta";
  }
  if (bins != 1 || metas != 1) return fail("expected one .bin and one .meta in " + folder.string());
  std::printf("trace_into_test: traced into %s without AMP_TRACE_DIR\n", folder.c_str());
  return 0;
}
