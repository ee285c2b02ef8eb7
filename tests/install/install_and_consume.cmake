# SPDX-License-Identifier: BSD-3-Clause
# Installs this AMP build into a fresh prefix, builds tests/install/consumer against it with
# find_package(AMP) (nothing from the source or build tree on its include or link path), runs it on two
# ranks and checks each rank's line exactly. Every step's exit code is checked.
# cmake -DAMP_BUILD=... -DWORK=... -DCONSUMER=... -DKokkos_DIR=... -DMPI_C=... -DMPI_CXX=... -DMPIEXEC=...
#       [-DMPIEXEC_FLAGS=...] -P install_and_consume.cmake
include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)

file(REMOVE_RECURSE ${WORK})
install_amp(${WORK}/prefix)
foreach(installed include/amp/comm/strategy.hpp include/amp/kernels/grid.hpp lib/cmake/AMP/AMPConfig.cmake
                  bin/amp-ghost)
  if(NOT EXISTS ${WORK}/prefix/${installed})
    message(FATAL_ERROR "cmake --install did not install ${installed}")
  endif()
endforeach()
step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/build -G Ninja -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_PREFIX_PATH=${WORK}/prefix -DKokkos_DIR=${Kokkos_DIR} -DMPI_CXX_COMPILER=${MPI_CXX})
step("building the consumer" ${CMAKE_COMMAND} --build ${WORK}/build)
separate_arguments(flags UNIX_COMMAND "${MPIEXEC_FLAGS}")
step("running the consumer" ${MPIEXEC} ${flags} -n 2 ${WORK}/build/one_exchange)
string(REGEX MATCHALL "rank [0-9] received[^\n]*" lines "${step_output}")
list(SORT lines)
set(expected "rank 0 received 10 11 12 13;rank 1 received 0 1 2 3")
if(NOT lines STREQUAL expected)
  message(FATAL_ERROR "the consumer printed '${lines}', expected '${expected}'")
endif()
message(STATUS "installed, consumed with find_package(AMP), exchanged: ${lines}")
