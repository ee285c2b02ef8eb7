// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel's entry point on a communicator: main() calls it with MPI_COMM_WORLD; a program that
// has started MPI itself may run amp-nobel on part of its ranks (tests/comm/split_world_program.cpp).
#pragma once

#include <mpi.h>

namespace amp::nobel {

// Runs amp-nobel with its command line on `comm` (collective over it); returns the exit code
// (exit_codes.hpp). Starts MPI (and finalizes it) only when the caller has not; rank 0 of `comm`
// prints and writes the results file.
int nobel_proxy_main(MPI_Comm comm, int argc, char** argv);

}  // namespace amp::nobel
