// MPI + Kokkos start-up and shut-down for a proxy, and the trace region switches (MPI_Pcontrol).
// MPI_Pcontrol(0) pauses the AMP DUMPI hook, MPI_Pcontrol(1) resumes it; other tools ignore them.
#include "environment.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdlib>
#include <cstring>

namespace amp {

namespace {

std::string find_trace_dir(int argc, char** argv, bool& trace_setup) {
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--trace") == 0 && i + 1 < argc) dir = argv[i + 1];
    if (std::strncmp(argv[i], "--trace=", 8) == 0) dir = argv[i] + 8;
    if (std::strcmp(argv[i], "--trace-setup") == 0) trace_setup = true;
  }
  if (dir.empty()) {
    const char* env = std::getenv("AMP_TRACE_DIR");
    if (env != nullptr) dir = env;
  }
  return dir;
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
  trace_dir_ = find_trace_dir(argc, argv, trace_setup_);
  if (!trace_dir_.empty()) setenv("AMP_TRACE_DIR", trace_dir_.c_str(), 1);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (!trace_setup_) MPI_Pcontrol(0);
  Kokkos::initialize(argc, argv);
}

Environment::~Environment() {
  Kokkos::finalize();
  if (!trace_setup_) MPI_Pcontrol(1);
  MPI_Finalize();
}

void Environment::begin_traced_region() const {
  if (!trace_setup_) MPI_Pcontrol(1);
}

void Environment::end_traced_region() const {
  if (!trace_setup_) MPI_Pcontrol(0);
}

}  // namespace amp
