// SPDX-License-Identifier: BSD-3-Clause
// The environment a proxy's body runs in: the communicator, its mode (run_mode.hpp), the exchange context
// its strategies are built in, and the trace region switches. ProcessEnvironment is the process's own:
// MPI, Kokkos and the tracing switches (--trace DIR, --trace-setup) that must be known before MPI_Init,
// all from the command line read once (start_request.hpp); RAII, its destructor finalizes what its
// constructor started. A synthesis gives each virtual rank an Environment of its own (synthesis.cpp).
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

class Environment {
 public:
  virtual ~Environment() = default;
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  // The communicator the proxy runs on (MPI_COMM_WORLD from main); rank() and size() are of it.
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool tracing() const { return !trace_dir_.empty(); }
  // How the proxy's body runs here (run_mode.hpp).
  const RunMode& mode() const { return *mode_; }
  // What the proxy's strategies are built in (comm/exchange_context.hpp): comm(), whether data moves, MPI's
  // buffers where AMP_MPI_BUFFERS puts them (mpi_buffers_setting.hpp). In a ProcessEnvironment only once the
  // run is not refused at start-up (startup_problem() is empty).
  const comm::ExchangeContext& exchange_context() const { return *exchange_context_; }
  // The node's load and this process's CPU time when the run began (machine_load.hpp).
  const MachineLoadStart& load_at_start() const { return load_at_start_; }

  // Trace recording covers only the region between these (unless --trace-setup was given).
  void begin_traced_region() const;
  void end_traced_region() const;

 protected:
  Environment(MPI_Comm comm, std::unique_ptr<RunMode> mode) : comm_(comm), mode_(std::move(mode)) {}

  MPI_Comm comm_ = MPI_COMM_WORLD;
  int rank_ = 0;
  int size_ = 1;
  std::string trace_dir_;  // where this rank's trace goes ("" when untraced)
  bool trace_setup_ = false;
  std::unique_ptr<RunMode> mode_;
  std::optional<comm::ExchangeContext> exchange_context_;
  MachineLoadStart load_at_start_;
};

class ProcessEnvironment : public Environment {
 public:
  // Hands the request's --trace DIR to the tracing library (amp_dumpi_trace_into) before MPI_Init, where
  // `mode` traces the process. Starts MPI (MPI_Init_thread, MPI_THREAD_FUNNELED, with the command line as
  // given) unless the caller did, and Kokkos (with the request's --kokkos-* arguments) unless the caller
  // did; the proxy runs on `comm` (every rank of it makes this call). A thread level below FUNNELED is a
  // startup_problem().
  ProcessEnvironment(const StartRequest& request, const ProcessMode& mode, MPI_Comm comm);
  ~ProcessEnvironment() override;

  // Why Kokkos was not started ("" when it was): an MPI thread level too low for Kokkos' threads, an
  // AMP_MPI_BUFFERS that is not auto, device or host, or a host thread count Kokkos cannot run. run_proxy
  // refuses the run with it (exit 2) before the body runs.
  const std::string& startup_problem() const { return startup_problem_; }
  // A run refused at start-up (exit 2): collective, before the destructor; the trace is removed
  // (refused_run_trace.hpp). Nothing where the process is not traced.
  void discard_trace();

 private:
  bool mpi_started_ = false;  // this object called MPI_Init_thread (and calls MPI_Finalize)
  bool kokkos_started_ = false;
  std::string startup_problem_;
  std::unique_ptr<RefusedRunTrace> refused_trace_;  // traced runs: what to remove on a refusal
};

}  // namespace amp
