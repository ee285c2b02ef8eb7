// SPDX-License-Identifier: BSD-3-Clause
// The process environment of a proxy run: MPI, Kokkos, the communicator the proxy runs on, and the
// tracing switches (--trace DIR, --trace-setup) that must be known before MPI_Init, all from the
// command line read once (start_request.hpp). RAII: the destructor finalizes what the constructor started.
#pragma once

#include <mpi.h>

#include <amp/miniapps/common/machine_load.hpp>
#include <amp/miniapps/common/refused_run_trace.hpp>
#include <amp/miniapps/common/run_mode.hpp>
#include <amp/miniapps/common/start_request.hpp>

#include <amp/comm/exchange_context.hpp>

#include <memory>
#include <optional>
#include <string>

namespace amp {

class Synthesis;

class Environment {
 public:
  // Hands the request's --trace DIR to the tracing library (amp_dumpi_trace_into) before MPI_Init.
  // Starts MPI (MPI_Init_thread, MPI_THREAD_FUNNELED, with the command line as given) unless the caller
  // did, and Kokkos (with the request's --kokkos-* arguments) unless the caller did; the proxy runs on
  // `comm` (every rank of it makes this call). A thread level below FUNNELED is a startup_problem().
  Environment(const StartRequest& request, MPI_Comm comm);
  // Virtual rank `rank` of a synthesis (synthesis.hpp): begins that rank's trace and makes the calls a
  // real run makes after MPI_Init; the destructor makes the ones before MPI_Finalize and ends it. Its
  // exchanges move no data, with MPI's buffers where the synthesizing process has them.
  Environment(Synthesis& synthesis, int rank, const StartRequest& request);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  // The communicator the proxy runs on (MPI_COMM_WORLD from main); rank() and size() are of it.
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool tracing() const { return !trace_dir_.empty(); }
  // The synthesis this virtual rank belongs to; null in a real run.
  Synthesis* synthesis() const { return synthesis_; }
  // How the proxy's loop runs (run_mode.hpp): a real run's or this synthesis's.
  const RunMode& mode() const { return *mode_; }
  // What the proxy's strategies are built in (comm/exchange_context.hpp): comm(), data moving unless in a
  // synthesis, MPI's buffers where AMP_MPI_BUFFERS puts them (mpi_buffers_setting.hpp). Only once the
  // run is not refused at start-up (startup_problem() is empty).
  const comm::ExchangeContext& exchange_context() const { return *exchange_context_; }

  // Why Kokkos was not started ("" when it was): an MPI thread level too low for Kokkos' threads, an
  // AMP_MPI_BUFFERS that is not auto, device or host, or a host thread count Kokkos cannot run. run_proxy
  // refuses the run with it (exit 2) before the body runs.
  const std::string& startup_problem() const { return startup_problem_; }
  // The node's load and this process's CPU time when the run began (machine_load.hpp).
  const MachineLoadStart& load_at_start() const { return load_at_start_; }

  // A real run refused at start-up (exit 2): collective, before the destructor; the trace is removed
  // (refused_run_trace.hpp). Nothing without --trace, or in a synthesis (which cleans up itself).
  void discard_trace();

  // Trace recording covers only the region between these (unless --trace-setup was given).
  void begin_traced_region() const;
  void end_traced_region() const;

 private:
  MPI_Comm comm_ = MPI_COMM_WORLD;
  bool mpi_started_ = false;  // this object called MPI_Init_thread (and calls MPI_Finalize)
  int rank_ = 0;
  int size_ = 1;
  std::string trace_dir_;
  bool trace_setup_ = false;
  Synthesis* synthesis_ = nullptr;
  std::unique_ptr<RunMode> mode_;
  std::optional<comm::ExchangeContext> exchange_context_;
  std::string startup_problem_;
  bool kokkos_started_ = false;
  MachineLoadStart load_at_start_;
  std::unique_ptr<RefusedRunTrace> refused_trace_;  // real traced runs: what to remove on a refusal
};

}  // namespace amp
