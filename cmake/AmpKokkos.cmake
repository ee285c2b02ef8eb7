# SPDX-License-Identifier: BSD-3-Clause
# Kokkos, checked at configure time: AMP keeps to the API common to Kokkos 3.4 and 4.x, and its proxies
# need a host back end (OpenMP, Threads or Serial) for their host-side work. One line says what was found.
find_package(Kokkos REQUIRED)
if(Kokkos_VERSION VERSION_LESS 3.4 OR NOT Kokkos_VERSION VERSION_LESS 5.0)
  message(FATAL_ERROR "AMP needs Kokkos 3.4 to 4.x; found ${Kokkos_VERSION} at ${Kokkos_DIR}")
endif()
set(AMP_KOKKOS_HOST_BACKENDS ${Kokkos_DEVICES})
list(FILTER AMP_KOKKOS_HOST_BACKENDS INCLUDE REGEX "^(OPENMP|THREADS|SERIAL)$")
if(NOT AMP_KOKKOS_HOST_BACKENDS)
  message(FATAL_ERROR "AMP needs a Kokkos host back end (OpenMP, Threads or Serial); "
                      "${Kokkos_DIR} has only ${Kokkos_DEVICES}")
endif()
string(REPLACE ";" ", " amp_kokkos_backends "${Kokkos_DEVICES}")
message(STATUS "AMP: Kokkos ${Kokkos_VERSION} (${Kokkos_DIR}), back ends: ${amp_kokkos_backends}")
