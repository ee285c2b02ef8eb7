// SPDX-License-Identifier: BSD-3-Clause
// AMP_MPI_BUFFERS, the user's word on where MPI's buffers live (README "GPU builds"): auto (or unset,
// or empty) leaves it to the build and its MPI library; device says the MPI is GPU-aware; host stages
// through host memory on any build, which is how the suite runs the staging path here. The proxy turns
// it into the exchange context's MpiBuffers (comm/mpi_buffers.hpp): the comm layer reads no environment.
#pragma once

#include <amp/comm/mpi_buffers.hpp>

#include <string>

namespace amp {

// Why AMP_MPI_BUFFERS cannot be used ("" when it is unset, empty, auto, device or host): one line naming
// the variable and its valid values, for a program to refuse the run with before any exchange.
std::string mpi_buffers_setting_problem();
// Where MPI's buffers live for this process, by AMP_MPI_BUFFERS (after MPI_Init, and only when
// mpi_buffers_setting_problem() is empty).
comm::MpiBuffers mpi_buffers_from_setting();

}  // namespace amp
