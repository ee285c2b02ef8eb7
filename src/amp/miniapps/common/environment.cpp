// SPDX-License-Identifier: BSD-3-Clause
// MPI + Kokkos start-up and shut-down for a proxy, and the trace region switches (MPI_Pcontrol).
// MPI_Pcontrol(0) pauses the AMP DUMPI hook, MPI_Pcontrol(1) resumes it; other tools ignore them.
#include <amp/miniapps/common/environment.hpp>

#include <amp/miniapps/common/mpi_buffers_setting.hpp>
#include <amp/miniapps/common/synthesis.hpp>
#include <amp/miniapps/common/thread_limit.hpp>

#include <amp/trace/writer/amp_dumpi.h>
#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace amp {

namespace {

// The folder the tracing library writes into: --trace DIR, else the user's AMP_TRACE_DIR ("" for none).
std::string trace_folder(const StartRequest& request) {
  if (!request.trace_dir.empty()) return request.trace_dir;
  const char* env = std::getenv("AMP_TRACE_DIR");
  return env == nullptr ? "" : env;
}

// Whether the host thread count was given: OMP_NUM_THREADS, or --kokkos-threads=N / --kokkos-num-threads=N.
bool thread_count_given(const std::vector<char*>& kokkos_args) {
  for (const char* argument : kokkos_args)
    if (std::strncmp(argument, "--kokkos-threads=", 17) == 0 ||
        std::strncmp(argument, "--kokkos-num-threads=", 21) == 0)
      return true;
  return std::getenv("OMP_NUM_THREADS") != nullptr;
}

// Kokkos sees only the --kokkos-* arguments (start_request.hpp). Returns why Kokkos was not started
// ("" when it was): a thread count it cannot run is refused before Kokkos::initialize. A synthesis
// runs one host thread unless a count is given: it runs no kernels per virtual rank, and idle OpenMP
// workers beside a busy core made its small per-rank regions wait a time slice each (10x slower).
std::string initialize_kokkos(std::vector<char*> kokkos_args, bool synthesis) {
  static char one_thread[] = "--kokkos-threads=1";
  if (synthesis && !thread_count_given(kokkos_args)) kokkos_args.push_back(one_thread);
  // Unset OMP_PROC_BIND already means "no binding" to the OpenMP runtime (read at program load);
  // saying so explicitly keeps Kokkos 3.4 from warning about it on every rank.
  setenv("OMP_PROC_BIND", "false", /*overwrite=*/0);
  std::string problem = thread_count_problem(kokkos_args);
  if (!problem.empty()) return problem;
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  char** kokkos_argv = kokkos_args.data();
  Kokkos::initialize(kokkos_argc, kokkos_argv);
  return "";
}

}  // namespace

Environment::Environment(const StartRequest& request, MPI_Comm comm)
    : comm_(comm), mode_(real_run()), load_at_start_(machine_load_start()) {
  trace_dir_ = trace_folder(request);
  trace_setup_ = request.trace_setup;
  // A synthesis traces its virtual ranks, not itself (it refuses --trace).
  if (!trace_dir_.empty() && !request.synthesis.asked) {
    // The library's messages name the flag the user gave.
    if (!request.trace_dir.empty()) amp_dumpi_trace_into(request.trace_dir.c_str(), "--trace");
    refused_trace_ = std::make_unique<RefusedRunTrace>(trace_dir_);
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
    startup_problem_ = initialize_kokkos(request.kokkos_args, request.synthesis.asked);
    kokkos_started_ = startup_problem_.empty();
    if (!kokkos_started_) return;
  }
  exchange_context_.emplace(comm_, mpi_buffers_from_setting(), /*moves_data=*/true);
}

Environment::Environment(Synthesis& synthesis, int rank, const StartRequest& request)
    : synthesis_(&synthesis),
      mode_(synthesized_run(synthesis)),
      exchange_context_(std::in_place, comm_, synthesis.mpi_buffers(), /*moves_data=*/false) {
  trace_dir_ = synthesis.directory();
  trace_setup_ = request.trace_setup;
  if (amp_dumpi_synthesis_begin(rank, synthesis.ranks(), trace_dir_.c_str(), request.argc, request.argv, "") != 0)
    throw std::runtime_error("the trace settings are not valid");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (!trace_setup_) MPI_Pcontrol(0);
}

Environment::~Environment() {
  if (synthesis_ != nullptr) {
    if (!trace_setup_) MPI_Pcontrol(1);
    amp_dumpi_synthesis_end();
    return;
  }
  exchange_context_.reset();  // its execution space instance goes before Kokkos does
  if (kokkos_started_) Kokkos::finalize();
  if (!trace_setup_) MPI_Pcontrol(1);
  if (!mpi_started_) return;  // the caller's MPI: it finalizes
  MPI_Finalize();
}

void Environment::discard_trace() {
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
