// SPDX-License-Identifier: BSD-3-Clause
// Runs the chosen micro-benchmark and reports it: heading and table on rank 0, CSV, JSON results;
// a failed verification becomes a VerificationError on every rank after the files are written.
#pragma once

#include <amp/miniapps/micro/benchmark.hpp>
#include <amp/miniapps/common/environment.hpp>

namespace amp::micro {

// With --trace, the benchmark's run (warm-up, timed repetitions, verification) is the traced region.
void run_benchmark(Benchmark& benchmark, const RunSettings& settings, const TraceRequest& trace,
                   const Environment& environment, MPI_Comm comm);

}  // namespace amp::micro
