# SPDX-License-Identifier: BSD-3-Clause
# Shared by the install tests' scripts: step() runs one command and stops the test with its output when
# it fails; install_amp(prefix) installs the build at AMP_BUILD into a fresh prefix.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${code}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

function(install_amp prefix)
  file(REMOVE_RECURSE ${prefix})
  step("cmake --install" ${CMAKE_COMMAND} --install ${AMP_BUILD} --prefix ${prefix})
endfunction()
