// Runs the chosen micro-benchmark and reports it: heading and table on rank 0, CSV, JSON results;
// a failed verification becomes a VerificationError on every rank after the files are written.
#pragma once

#include "benchmark.hpp"

namespace amp::micro {

void run_benchmark(Benchmark& benchmark, const RunSettings& settings, MPI_Comm comm);

}  // namespace amp::micro
