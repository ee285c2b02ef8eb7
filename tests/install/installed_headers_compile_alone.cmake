# SPDX-License-Identifier: BSD-3-Clause
# Installs this AMP build into a fresh prefix and compiles every installed public header on its own against it
# (tests/install/each_header): a header that leans on another's includes fails here.
# cmake -DAMP_BUILD=... -DWORK=... -DPROJECT=... -DKokkos_DIR=... -DMPI_C=... -DMPI_CXX=...
#       -P installed_headers_compile_alone.cmake
include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)

file(REMOVE_RECURSE ${WORK})
install_amp(${WORK}/prefix)
step("configuring the header project" ${CMAKE_COMMAND} -S ${PROJECT} -B ${WORK}/build -G Ninja
     -DCMAKE_PREFIX_PATH=${WORK}/prefix -DAMP_INCLUDE_DIR=${WORK}/prefix/include -DKokkos_DIR=${Kokkos_DIR}
     -DMPI_C_COMPILER=${MPI_C} -DMPI_CXX_COMPILER=${MPI_CXX})
step("compiling each installed public header alone" ${CMAKE_COMMAND} --build ${WORK}/build -- -k 0)
message(STATUS "every installed public header compiles on its own")
