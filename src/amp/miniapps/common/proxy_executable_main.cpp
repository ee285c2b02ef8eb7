// SPDX-License-Identifier: BSD-3-Clause
// main() of amp-ghost, amp-sage and amp-nobel: the proxy's entry point on MPI_COMM_WORLD. Each
// executable compiles it with its own AMP_PROXY_HEADER and AMP_PROXY_ENTRY (amp_add_proxy_executable).
#include AMP_PROXY_HEADER

int main(int argc, char** argv) { return AMP_PROXY_ENTRY(MPI_COMM_WORLD, argc, argv); }
