// SPDX-License-Identifier: BSD-3-Clause
// The tracing library's C API for a build configured with AMP_ENABLE_TRACING=OFF: no trace is ever
// active, none ever fails, and a synthesis cannot begin (the proxies refuse --trace and --synthesize
// before any of this is reached: check_output_flags, Synthesis).
#include <amp/trace/writer/amp_dumpi.h>

extern "C" {
void amp_dumpi_trace_into(const char*, const char*) {}
const char* amp_dumpi_trace_directory(void) { return ""; }
int amp_dumpi_active(void) { return 0; }
int amp_dumpi_trace_failed(void) { return 0; }
void amp_dumpi_discard(void) {}
int amp_dumpi_synthesis_begin(int, int, const char*, int, char**, const char*) { return -1; }
void amp_dumpi_synthesis_advance(double) {}
void amp_dumpi_synthesis_end(void) {}
const char* amp_dumpi_synthesis_meta_path(void) { return ""; }
}
