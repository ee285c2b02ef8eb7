// amp-sage: the SAGE-like gather/scatter proxy. Parses flags/deck, partitions the cells along a
// space-filling curve, runs the face-flux time loop under the chosen comm strategy, verifies, reports
// (or, with --plan-only, stops after the set-up of one virtual rank and reports it).
#include "sage_proxy.hpp"

int main(int argc, char** argv) { return amp::sage::sage_proxy_main(MPI_COMM_WORLD, argc, argv); }
