// SPDX-License-Identifier: BSD-3-Clause
// What every proxy's time loop measures, and the results fields and summary lines built from it
// that all proxies share: verification, checksum, messages, bytes, timing (collective calls).
#pragma once

#include <amp/miniapps/common/conservation.hpp>

#include <amp/comm/traffic.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace amp {

// One rank's numbers from a proxy's time-stepping loop.
struct LoopMeasurements {
  double loop_seconds = 0;        // the time-stepping loop
  double compute_seconds = 0;     // kernels
  double collective_seconds = 0;  // MPI_Allreduce and friends
  comm::ExchangeTimes exchange;   // the strategy's pack / unpack / post / wait
  comm::Traffic traffic;          // the strategy's sends
  std::uint64_t checksum = 0;     // global digest of the final field
  bool verified = false;
  double worst_error = 0;  // largest relative conservation error seen
  int checks = 0;
  std::string failure;  // the first failed check; empty when verified

  // Takes the verdict of the run's conservation checks (failure, verified, worst error, checks).
  void record_verdict(const Conservation& conservation);
};

// Adds "verification" (passed, checks, max_relative_error, tolerance, failure), "checksum",
// "messages" and "bytes" (total, per_step_per_rank, size_histogram) and "timing" (loop_seconds,
// per_step_seconds, compute, pack, unpack, mpi, mpi_post, mpi_wait, collective) to `results`.
// Collective: every rank calls it.
void add_loop_results(nlohmann::json& results, const LoopMeasurements& m, int steps, double tolerance, MPI_Comm comm);

// The summary lines for those fields (rank 0 prints).
void print_verification_summary(const nlohmann::json& results);
void print_loop_summary(const nlohmann::json& results);

}  // namespace amp
