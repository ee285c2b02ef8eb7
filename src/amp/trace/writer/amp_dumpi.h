// SPDX-License-Identifier: BSD-3-Clause
/* Public C interface of libamp_dumpi beyond the MPI_* wrappers themselves.
 * Tracing is controlled by environment variables read in MPI_Init (see docs/TRACE_FORMAT.md), or by a
 * program that links the library through amp_dumpi_trace_into, called before MPI_Init. */
#ifndef AMP_DUMPI_H
#define AMP_DUMPI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Before MPI_Init: trace this process into DIRECTORY (tracing on, as AMP_TRACE_DIR=DIRECTORY would, which it
 * overrides; the other AMP_TRACE_* settings still apply). SOURCE names what the user gave, for the
 * library's messages ("--trace"); NULL or "" names AMP_TRACE_DIR. A NULL or empty DIRECTORY undoes it. */
void amp_dumpi_trace_into(const char* directory, const char* source);

/* The directory this process traces into from MPI_Init: amp_dumpi_trace_into's, else AMP_TRACE_DIR's ("" when
 * neither). The one reading of AMP_TRACE_DIR: a program that needs the folder asks here. */
const char* amp_dumpi_trace_directory(void);

/* 1 while this process is writing a DUMPI trace (recording or paused by MPI_Pcontrol(0)), else 0.
 * Calling it also guarantees the library stays linked in. */
int amp_dumpi_active(void);

/* 1 when a trace this process wrote is incomplete because a write or the close of its file failed
 * (after MPI_Finalize, or after amp_dumpi_synthesis_end for a virtual rank), else 0. The library has
 * then printed one line naming the file; a program can turn this into its exit status. */
int amp_dumpi_trace_failed(void);

/* The program throws away the trace this process is writing (a run refused at start-up) and removes
 * its files itself, before MPI_Finalize: MPI_Finalize then adds nothing to the .meta. Every process
 * of the run calls it (the counts MPI_Finalize gathers for the .meta stay collective). */
void amp_dumpi_discard(void);

/* Synthesis (docs/TRACE_FORMAT.md): one MPI process writes the traces of `ranks` virtual ranks, one
 * after another. Between begin and end this process is virtual rank `rank`: the MPI calls that
 * communicate are answered for it without moving data (synthetic_mpi.hpp) and recorded as in a real
 * run, into DIRECTORY under the name rank 0's begin chose. Rank 0's begin adds `meta_lines`
 * ("key=value
" each) to the .meta. The records' clock stands still except when advanced: MPI calls
 * take no time. begin returns 0, or prints one line and returns 1 when the settings are bad; a
 * trace file that cannot be created ends the process with status 1, as in a real run. */
int amp_dumpi_synthesis_begin(int rank, int ranks, const char* directory, int argc, char** argv,
                              const char* meta_lines);
void amp_dumpi_synthesis_advance(double seconds);
void amp_dumpi_synthesis_end(void);
/* The .meta file of the synthesis (empty before rank 0 began). */
const char* amp_dumpi_synthesis_meta_path(void);

#ifdef __cplusplus
}
#endif

#endif /* AMP_DUMPI_H */
