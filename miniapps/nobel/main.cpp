// amp-nobel: the xNOBEL-like small-message proxy with block AMR. Parses flags/deck, runs the time loop
// under the chosen comm strategy, verifies, prints the summary and writes JSON results (or, with
// --plan-only, stops after the set-up of one virtual rank and reports it).
#include "nobel_proxy.hpp"

int main(int argc, char** argv) { return amp::nobel::nobel_proxy_main(MPI_COMM_WORLD, argc, argv); }
