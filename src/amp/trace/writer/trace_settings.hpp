// SPDX-License-Identifier: BSD-3-Clause
// The tracer's configuration, read once from the environment when MPI_Init runs
// (AMP_TRACE_DIR switches tracing on, or the program's amp_dumpi_trace_into; the others tune it).
// See docs/TRACE_FORMAT.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace amp::trace {

struct TraceSettings {
  std::string directory;  // AMP_TRACE_DIR (empty: tracing off)
  // What the user set to give that directory, for messages: AMP_TRACE_DIR, or the flag a program
  // turned into it (amp_dumpi_trace_into's source: `--trace` for AMP's proxies).
  std::string directory_source = "AMP_TRACE_DIR";
  std::string prefix;                   // AMP_TRACE_PREFIX (empty: dumpi-<YYYY.MM.DD.hh.mm.ss>)
  std::size_t buffer_bytes = 4u << 20;  // AMP_TRACE_BUFFER_BYTES (min 64 KiB)
  bool cpu_times = false;               // AMP_TRACE_CPU_TIMES=1
  bool statuses = true;                 // AMP_TRACE_STATUSES=0 drops status fields
  bool start_paused = false;            // AMP_TRACE_START_PAUSED=1: record only after MPI_Pcontrol(1)
  // AMP_TRACE_FLUSH_SECONDS: buffered records reach the file at most this long after the last flush
  // (0: after every record), so a SIGKILL loses about this much.
  std::int64_t flush_interval_ns = 1'000'000'000;

  // The directory given by amp_dumpi_trace_into (before MPI_Init), which AMP_TRACE_DIR gives otherwise.
  static void set_directory(const std::string& directory, const std::string& source);

  // That directory, else AMP_TRACE_DIR ("" when neither): the one place AMP_TRACE_DIR is read.
  static std::string asked_directory();

  // Returns settings with an empty directory when neither set_directory nor AMP_TRACE_DIR gave one.
  // Throws std::runtime_error on malformed values.
  static TraceSettings from_environment();
};

}  // namespace amp::trace
