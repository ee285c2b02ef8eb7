// SPDX-License-Identifier: BSD-3-Clause
// MPI + Kokkos start-up and shut-down for a proxy, and the trace region switches (MPI_Pcontrol).
// MPI_Pcontrol(0) pauses the AMP DUMPI hook, MPI_Pcontrol(1) resumes it; other tools ignore them.
#include <amp/miniapps/common/environment.hpp>

#include <amp/miniapps/common/mpi_buffers_setting.hpp>
#include <amp/miniapps/common/thread_limit.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace amp {

namespace {

// Whether the host thread count was given: OMP_NUM_THREADS, or --kokkos-threads=N / --kokkos-num-threads=N.
bool thread_count_given(const std::vector<std::string>& kokkos_args) {
  for (const std::string& argument : kokkos_args)
    if (argument.rfind("--kokkos-threads=", 0) == 0 || argument.rfind("--kokkos-num-threads=", 0) == 0) return true;
  return std::getenv("OMP_NUM_THREADS") != nullptr;
}

// Kokkos sees only the --kokkos-* arguments (start_request.hpp), and the mode's thread count where they
// and OMP_NUM_THREADS give none. Returns why Kokkos was not started ("" when it was): a thread count it
// cannot run is refused before Kokkos::initialize.
std::string initialize_kokkos(std::vector<std::string> kokkos_args, const ProcessMode& mode) {
  if (!thread_count_given(kokkos_args))
    for (const std::string& argument : mode.default_kokkos_threads()) kokkos_args.push_back(argument);
  // Unset OMP_PROC_BIND already means "no binding" to the OpenMP runtime (read at program load);
  // saying so explicitly keeps Kokkos 3.4 from warning about it on every rank.
  setenv("OMP_PROC_BIND", "false", /*overwrite=*/0);
  std::string problem = thread_count_problem(kokkos_args);
  if (!problem.empty()) return problem;
  std::vector<char*> kokkos_argv;
  for (std::string& argument : kokkos_args) kokkos_argv.push_back(argument.data());
  int kokkos_argc = static_cast<int>(kokkos_argv.size());
  kokkos_argv.push_back(nullptr);
  Kokkos::initialize(kokkos_argc, kokkos_argv.data());
  return "";
}

}  // namespace

ProcessEnvironment::ProcessEnvironment(const StartRequest& request, const ProcessMode& mode, MPI_Comm comm)
    : Environment(comm, real_run()) {
  load_at_start_ = machine_load_start();
  trace_setup_ = request.trace.setup;
  if (mode.traces_process()) {
    // The library's messages name the flag the user gave; it holds the folder, or AMP_TRACE_DIR's.
    if (!request.trace.directory.empty()) amp_dumpi_trace_into(request.trace.directory.c_str(), "--trace");
    trace_dir_ = amp_dumpi_trace_directory();
    if (!trace_dir_.empty()) refused_trace_ = std::make_unique<RefusedRunTrace>(trace_dir_);
  }
  int initialized = 0, provided = MPI_THREAD_SINGLE;
  MPI_Initialized(&initialized);
  if (initialized == 0) {
    int argc = request.argc;
    char** argv = request.argv;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    mpi_started_ = true;
  } else {
    MPI_Query_thread(&provided);
  }
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (!trace_setup_) MPI_Pcontrol(0);
  startup_problem_ = mpi_thread_level_problem(provided);
  if (startup_problem_.empty()) startup_problem_ = mpi_buffers_setting_problem();
  if (!startup_problem_.empty()) return;
  if (!Kokkos::is_initialized()) {
    startup_problem_ = initialize_kokkos(request.kokkos_args, mode);
    kokkos_started_ = startup_problem_.empty();
    if (!kokkos_started_) return;
  }
  exchange_context_.emplace(comm_, mpi_buffers_from_setting(), /*moves_data=*/true);
}

ProcessEnvironment::~ProcessEnvironment() {
  exchange_context_.reset();  // its execution space instance goes before Kokkos does
  if (kokkos_started_) Kokkos::finalize();
  if (!trace_setup_) MPI_Pcontrol(1);
  if (!mpi_started_) return;  // the caller's MPI: it finalizes
  MPI_Finalize();
}

void ProcessEnvironment::discard_trace() {
  if (refused_trace_ == nullptr || amp_dumpi_active() == 0) return;
  refused_trace_->remove(rank_, comm_);
}

void Environment::begin_traced_region() const {
  if (!trace_setup_) MPI_Pcontrol(1);
}

void Environment::end_traced_region() const {
  if (!trace_setup_) MPI_Pcontrol(0);
}

}  // namespace amp
