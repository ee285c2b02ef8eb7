// SPDX-License-Identifier: BSD-3-Clause
// The records that open and close a trace (MPI_Init or MPI_Init_thread, and MPI_Finalize), shared by
// their wrappers and by a synthesis, which writes them for each virtual rank in one MPI process.
#pragma once

#include <cstdint>
#include <string>

#include <amp/trace/writer/trace_naming.hpp>
#include <amp/trace/writer/trace_settings.hpp>
#include <amp/trace/writer/tracer.hpp>

namespace amp::trace {

// Starts the tracer (tracer.hpp) and writes the Init/Init_thread record with the program's arguments:
// an Init_thread that provided at most MPI_THREAD_FUNNELED as an Init record (SST-macro replays compute
// only after an MPI_Init record).
void start_and_record_init(std::uint16_t function, const TraceSettings& settings, const CallTimes& before, int* argc,
                           char*** argv, bool thread_multiple, int required, int provided,
                           const TraceNames* agreed_names = nullptr, const std::string& extra_meta_lines = "");

// Adds the unrecorded-call counts to the .meta, writes the Finalize record (calling PMPI_Finalize
// inside it when `finalize_library`) and finishes the file.
int record_finalize(bool finalize_library);

}  // namespace amp::trace
