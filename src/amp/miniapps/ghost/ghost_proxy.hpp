// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's entry point on a communicator: main() calls it with MPI_COMM_WORLD; a program that
// has started MPI itself may run amp-ghost on part of its ranks (tests/comm/split_world_program.cpp).
#pragma once

#include <mpi.h>

namespace amp::ghost {

// Runs amp-ghost with its command line on `comm` (collective over it); returns the exit code
// (exit_codes.hpp). Starts MPI (and finalizes it) only when the caller has not; rank 0 of `comm`
// prints and writes the results file.
int ghost_proxy_main(MPI_Comm comm, int argc, char** argv);

}  // namespace amp::ghost
