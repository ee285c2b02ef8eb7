// SPDX-License-Identifier: BSD-3-Clause
// The C entry points of a synthesis (amp_dumpi.h): each virtual rank's trace is begun with the
// names rank 0 chose, written by the same wrappers as a real run's while synthetic_mpi.hpp answers
// the MPI calls, and ended with its Finalize record; the records' clock moves only when the program
// says how long its modelled compute took.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/trace/writer/lifecycle_records.hpp>
#include <amp/trace/writer/synthetic_mpi.hpp>

using namespace amp::trace;

namespace {

struct Synthesis {
  TraceNames names;  // rank 0's, shared by every later rank
  bool named = false;
  std::int64_t start_ns = 0;
};

Synthesis& synthesis() {
  static Synthesis s;
  return s;
}

}  // namespace

extern "C" {

int amp_dumpi_synthesis_begin(int rank, int ranks, const char* directory, int argc, char** argv,
                              const char* meta_lines) {
  Synthesis& s = synthesis();
  TraceSettings settings;
  try {
    settings = TraceSettings::from_environment();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "amp_dumpi: %s\n", error.what());
    return 1;
  }
  settings.directory = directory;
  if (!s.named) {
    const Timestamp now = read_clock(CLOCK_MONOTONIC);
    s.start_ns = now.sec * 1'000'000'000;  // every rank starts on the same whole second
  }
  SyntheticMpi::instance().begin_rank(rank, ranks);
  SyntheticClock::ns = s.start_ns;
  SyntheticClock::on = true;
  const CallTimes times{SyntheticClock::now(), SyntheticClock::now(), SyntheticClock::now(), SyntheticClock::now()};
  // As a proxy's real run starts: MPI_Init_thread, FUNNELED asked for and given (Environment), which
  // start_and_record_init records as MPI_Init, as it does for the real run.
  start_and_record_init(kInitThread, settings, times, &argc, &argv, false, MPI_THREAD_FUNNELED, MPI_THREAD_FUNNELED,
                        s.named ? &s.names : nullptr, s.named ? "" : meta_lines);
  if (!s.named) {
    s.names = Tracer::instance().names();
    s.named = true;
  }
  return 0;
}

void amp_dumpi_synthesis_advance(double seconds) {
  if (seconds > 0) SyntheticClock::ns += std::llround(seconds * 1e9);
}

void amp_dumpi_synthesis_end(void) {
  record_finalize(false);
  SyntheticMpi::instance().end_rank();
  SyntheticClock::on = false;
}

const char* amp_dumpi_synthesis_meta_path(void) {
  static std::string path;
  path = synthesis().named ? synthesis().names.meta_path() : std::string();
  return path.c_str();
}

}  // extern "C"
