// SPDX-License-Identifier: BSD-3-Clause
// AMP_MPI_BUFFERS read once and turned into the exchange context's MpiBuffers (mpi_buffers_setting.hpp).
#include <amp/miniapps/common/mpi_buffers_setting.hpp>

#include <cstdlib>

namespace amp {

namespace {

std::string user_word() {
  const char* set = std::getenv("AMP_MPI_BUFFERS");
  return set == nullptr ? "" : set;
}

}  // namespace

std::string mpi_buffers_setting_problem() {
  const std::string word = user_word();
  if (word.empty() || word == "auto" || word == "device" || word == "host") return "";
  return "AMP_MPI_BUFFERS must be auto, device or host (got '" + word + "')";
}

comm::MpiBuffers mpi_buffers_from_setting() {
  const std::string word = user_word();
  if (word == "host") return comm::MpiBuffers::staged_through_host("AMP_MPI_BUFFERS=host");
  if (word == "device") return comm::MpiBuffers::in_memory_space("AMP_MPI_BUFFERS=device");
  return comm::MpiBuffers::where_mpi_reaches();
}

}  // namespace amp
