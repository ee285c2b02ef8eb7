// SPDX-License-Identifier: BSD-3-Clause
// --synthesize DIR --ranks N (docs/TRACE_FORMAT.md): one process, no mpiexec, writes the DUMPI trace
// of each of N virtual ranks in turn by running the proxy's own body for that rank: the same
// decomposition, plan, strategy and transport code and the same trace writer as a real run, while the
// tracing library answers the MPI calls for the rank (trace/writer/synthetic_mpi.hpp) and no data
// moves (each virtual rank's exchange context says so: comm/exchange_context.hpp). The proxy's body
// runs as in a real run; what differs lives in the Environment each virtual rank gets and in the modes
// (run_mode.hpp) this file's synthesis.cpp defines, the only place that knows a run is a synthesis. Compute is not run:
// each compute step moves the rank's clock on by the compute model, seconds measured once on this
// machine for the rank's block (or given with --compute_seconds). One rank's state lives at a time, so
// memory does not grow with N. DIR must be new: the traces go to a staging folder beside it, renamed to
// DIR when the synthesis is complete.
#pragma once

#include <amp/miniapps/common/environment.hpp>
#include <amp/miniapps/common/reserved_output.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace amp::trace {
class StagedDirectory;
}

namespace amp {

// Empty when a synthesis can write `transport` (its registration's TraceTraits say so); else the one-line
// reason, naming the transports it can write.
std::string synthesis_problem(const comm::TransportRegistration& transport);

class Synthesis {
 public:
  using Body = ProcessMode::Body;

  // Checks --synthesize, --ranks and --compute_seconds as the request holds them (start_request.hpp),
  // creates DIR's parent folders and the staging folder; throws InputError naming the problem (DIR
  // exists, cannot be created), leaving nothing.
  Synthesis(const char* proxy, const StartRequest& request, const Environment& process);
  // Unless the synthesis completed: removes the staging folder and the parent folders it created.
  ~Synthesis();
  Synthesis(const Synthesis&) = delete;
  Synthesis& operator=(const Synthesis&) = delete;

  int ranks() const { return ranks_; }
  // Where MPI's buffers live for every virtual rank: where the synthesizing process has them.
  const comm::MpiBuffers& mpi_buffers() const { return mpi_buffers_; }
  // Where the virtual ranks' traces are written: the staging folder (DIR once the synthesis completes).
  const std::string& directory() const { return staging_path_; }

  // Seconds one compute step described by `what` takes ("one variable's 3D7PT step on a 64x64x64
  // block"): --compute_seconds when given, else measure() run once per distinct `what`.
  double compute_seconds(const std::string& what, const std::function<double()>& measure);
  // Moves the current virtual rank's clock on by `seconds` of modelled compute; InputError once the
  // rank's modelled run would pass kMaxModelledSeconds (plan_only.hpp), which the trace cannot hold.
  // Throws stop_signals::Stopped once a SIGINT or SIGTERM came (also checked between virtual ranks).
  void advance(double seconds) const;
  // A proxy hands over virtual rank 0's results file (reserved by that rank) and results; their config
  // goes into the synthesis's results.
  void keep_results(ReservedOutput results_file, const nlohmann::json& results);

  // Runs `body` once per virtual rank, then completes the .meta, renames the staging folder to DIR,
  // prints the summary and writes the results file. A refused, failed, incomplete (TraceFileError) or
  // stopped synthesis leaves nothing: the staging folder is removed, and so are the folders it created.
  void run(const StartRequest& request, const Body& body);

 private:
  nlohmann::json model_json() const;
  std::string model_text() const;

  std::string proxy_;
  std::string directory_;  // DIR as given
  std::unique_ptr<trace::StagedDirectory> staging_;
  std::string staging_path_;
  bool completed_ = false;
  int ranks_ = 0;
  comm::MpiBuffers mpi_buffers_;
  std::optional<double> given_seconds_;  // --compute_seconds (none: measure)
  std::map<std::string, double> measured_;
  mutable double modelled_seconds_ = 0;       // of the current virtual rank
  std::vector<std::string> created_folders_;  // innermost first
  ReservedOutput results_file_;
  nlohmann::json results_config_;
};

}  // namespace amp
