/* Public C interface of libamp_dumpi beyond the MPI_* wrappers themselves.
 * Tracing is controlled by environment variables read in MPI_Init (see docs/TRACING.md). */
#ifndef AMP_DUMPI_H
#define AMP_DUMPI_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 while this process is writing a DUMPI trace (recording or paused by MPI_Pcontrol(0)), else 0.
 * Calling it also guarantees the library stays linked in. */
int amp_dumpi_active(void);

#ifdef __cplusplus
}
#endif

#endif /* AMP_DUMPI_H */
