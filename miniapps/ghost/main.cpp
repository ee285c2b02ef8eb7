// amp-ghost: the miniGhost-style stencil proxy (CTH). Parses flags/deck, decomposes, runs the time loop
// under the chosen comm strategy, verifies, prints the summary and writes JSON results (or, with
// --plan-only, stops after the set-up of one virtual rank and reports it; with --synthesize, runs once
// per virtual rank to write their traces).
#include "ghost_proxy.hpp"

int main(int argc, char** argv) { return amp::ghost::ghost_proxy_main(MPI_COMM_WORLD, argc, argv); }
