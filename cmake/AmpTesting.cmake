# SPDX-License-Identifier: BSD-3-Clause
# Test helpers: serial GoogleTest executables and MPI tests run through mpiexec at a given rank count.
# amp_add_mpi_test(NAME n RANKS r COMMAND exe args...) runs oversubscribed with OMP_NUM_THREADS=1.

# PYTHONPATH: the Python tools are the package tools/amp_tools (`python3 -m amp_tools.<module>`).
set(AMP_TEST_ENVIRONMENT OMP_NUM_THREADS=1 OMP_PROC_BIND=false PYTHONPATH=${PROJECT_SOURCE_DIR}/tools)

# Open MPI: the settings the amp driver also uses (cmake/openmpi.env: one-sided component,
# oversubscription, Kokkos' rank count) reach every test through its environment; --oversubscribe
# also goes on the command line of the checkers and benchmarks that take AMP_MPIEXEC_EXTRA_FLAGS.
set(AMP_MPIEXEC_EXTRA_FLAGS "" CACHE STRING "extra flags for mpiexec in tests (e.g. --oversubscribe)")
if(MPIEXEC_EXECUTABLE)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _amp_mpiexec_version ERROR_QUIET)
  if(_amp_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(AMP_MPI_IS_OPENMPI TRUE)
    set(AMP_MPIEXEC_EXTRA_FLAGS "--oversubscribe" CACHE STRING "" FORCE)
    file(STRINGS ${PROJECT_SOURCE_DIR}/cmake/openmpi.env _amp_openmpi_settings REGEX "^[A-Za-z_][A-Za-z0-9_]*=")
    list(APPEND AMP_TEST_ENVIRONMENT ${_amp_openmpi_settings})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/openmpi.env)
  endif()
endif()

function(amp_add_mpi_test)
  cmake_parse_arguments(ARG "WILL_FAIL" "NAME;RANKS;TIMEOUT;FAIL_REGULAR_EXPRESSION;PASS_REGULAR_EXPRESSION"
                        "COMMAND;LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  add_test(NAME ${ARG_NAME}
           COMMAND ${MPIEXEC_EXECUTABLE} ${AMP_MPIEXEC_EXTRA_FLAGS} ${MPIEXEC_NUMPROC_FLAG} ${ARG_RANKS}
                   ${ARG_COMMAND})
  set_tests_properties(${ARG_NAME} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
                       ENVIRONMENT "${AMP_TEST_ENVIRONMENT}" PROCESSORS ${ARG_RANKS})
  if(ARG_WILL_FAIL)
    set_tests_properties(${ARG_NAME} PROPERTIES WILL_FAIL TRUE)
  endif()
  if(ARG_PASS_REGULAR_EXPRESSION)
    set_tests_properties(${ARG_NAME} PROPERTIES PASS_REGULAR_EXPRESSION "${ARG_PASS_REGULAR_EXPRESSION}")
  endif()
  if(ARG_LABELS)
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
endfunction()

# amp_add_gtest(NAME n SOURCES ... LIBS ... [RANKS r...]): one executable, one CTest entry per rank count
# (serial when RANKS is absent). The executable must initialise MPI itself when RANKS is given.
function(amp_add_gtest)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "SOURCES;LIBS;RANKS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_LIBS} GTest::gtest)
  set_target_properties(${ARG_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  if(ARG_RANKS)
    foreach(r ${ARG_RANKS})
      amp_add_mpi_test(NAME ${ARG_NAME}.np${r} RANKS ${r} TIMEOUT ${ARG_TIMEOUT}
                       COMMAND $<TARGET_FILE:${ARG_NAME}>)
    endforeach()
  else()
    add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME})
    set_tests_properties(${ARG_NAME} PROPERTIES TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${AMP_TEST_ENVIRONMENT}")
  endif()
endfunction()

# amp_back_end_spaces(out): the execution spaces of the back ends Kokkos was built with (Kokkos_DEVICES:
# SERIAL, OPENMP, THREADS, CUDA, HIP), as Kokkos::Serial, Kokkos::OpenMP, ... (HIP under Experimental::
# before Kokkos 4): the one list of back ends the tests know.
function(amp_back_end_spaces out)
  set(hip_space HIP)  # Kokkos 4 took HIP out of Experimental
  if(Kokkos_VERSION VERSION_LESS 4.0)
    set(hip_space Experimental::HIP)
  endif()
  set(spaces "")
  foreach(device_and_space SERIAL:Serial OPENMP:OpenMP THREADS:Threads CUDA:Cuda HIP:${hip_space})
    string(REPLACE ":" ";" pair ${device_and_space})
    list(GET pair 0 device)
    list(GET pair 1 space)
    if(device IN_LIST Kokkos_DEVICES)
      list(APPEND spaces Kokkos::${space})
    endif()
  endforeach()
  set(${out} ${spaces} PARENT_SCOPE)
endfunction()

# amp_add_gtest_per_back_end(NAME n SOURCES ... LIBS ...): as Cabana's harness, the tests compiled once
# per back end of amp_back_end_spaces, as n_<Space> (n_Serial, n_OpenMP, ...), each naming its space in
# AMP_TEST_EXECUTION_SPACE for tests/common/test_execution_space.hpp; tests/common/back_end_test_main.cpp
# is their main, and fails the run if an amp:: kernel ran on another space. Label back_ends.
function(amp_add_gtest_per_back_end)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBS" ${ARGN})
  amp_back_end_spaces(spaces)
  foreach(space IN LISTS spaces)
    string(REGEX REPLACE "^.*::" "" name ${space})  # Kokkos::Experimental::HIP: HIP
    amp_add_gtest(NAME ${ARG_NAME}_${name} LIBS ${ARG_LIBS}
                  SOURCES ${ARG_SOURCES} ${PROJECT_SOURCE_DIR}/tests/common/back_end_test_main.cpp)
    target_compile_definitions(${ARG_NAME}_${name} PRIVATE AMP_TEST_EXECUTION_SPACE=${space})
    set_tests_properties(${ARG_NAME}_${name} PROPERTIES LABELS back_ends)
  endforeach()
endfunction()

# amp_name_every_back_end(target): names every space of amp_back_end_spaces to `target`'s sources in
# AMP_TEST_BACK_ENDS, for tests/common/back_ends.hpp (a test that runs on all of them in one executable).
function(amp_name_every_back_end target)
  amp_back_end_spaces(spaces)
  list(JOIN spaces "," joined)
  target_compile_definitions(${target} PRIVATE "AMP_TEST_BACK_ENDS=${joined}")
endfunction()

# amp_add_checked_run(PREFIX p CHECKER script.py EXE target NAME n RANKS r [TIMEOUT s] ARGS args...):
# a Python checker that runs `mpiexec -n r <target> ...` and checks what it wrote. Test p.n.npR, label p.
# The checker takes --mpiexec, --mpiexec-flags, --np and --exe, then its own ARGS.
function(amp_add_checked_run)
  cmake_parse_arguments(ARG "" "PREFIX;CHECKER;EXE;NAME;RANKS;TIMEOUT" "ARGS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  set(test ${ARG_PREFIX}.${ARG_NAME}.np${ARG_RANKS})
  add_test(NAME ${test}
           COMMAND ${Python3_EXECUTABLE} ${ARG_CHECKER} --mpiexec ${MPIEXEC_EXECUTABLE}
                   "--mpiexec-flags=${AMP_MPIEXEC_EXTRA_FLAGS}" --np ${ARG_RANKS} --exe $<TARGET_FILE:${ARG_EXE}>
                   ${ARG_ARGS})
  set_tests_properties(${test} PROPERTIES TIMEOUT ${ARG_TIMEOUT} PROCESSORS ${ARG_RANKS}
                       ENVIRONMENT "${AMP_TEST_ENVIRONMENT}" LABELS ${ARG_PREFIX})
endfunction()

# amp_label_suite(label): every test this folder registered (its CMakeLists.txt and the files it includes)
# gets `label`, the suite's name, beside the labels it already has (`ctest -L ghost` runs the ghost folder;
# tests/README.md lists the suites). Called last in each tests/<folder>/CMakeLists.txt.
function(amp_label_suite label)
  get_property(tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
  foreach(test IN LISTS tests)
    set_property(TEST ${test} APPEND PROPERTY LABELS ${label})
  endforeach()
endfunction()
