# SPDX-License-Identifier: BSD-3-Clause
# `cmake --install`: the libraries (AMP::comm, AMP::kernels, AMP::dumpi), their headers under include/amp/,
# the proxies and amp-trace, and AMPConfig.cmake so that another project can `find_package(AMP)`.
include(CMakePackageConfigHelpers)

set(AMP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/AMP)
set(amp_library_targets amp_kernels amp_comm_archive amp_comm)
if(TARGET amp_dumpi)
  list(APPEND amp_library_targets amp_dumpi)
endif()
install(TARGETS ${amp_library_targets} EXPORT AMPTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The public headers: the umbrellas (amp/comm.hpp, amp/kernels.hpp) and the headers at the top of
# src/amp/comm/ and src/amp/kernels/, which name the comm layer's inner types only by declaration (fwd.hpp).
# What they are built on (comm/impl/) and the strategies' and transports' own headers are not installed.
file(GLOB amp_comm_public_headers ${PROJECT_SOURCE_DIR}/src/amp/comm/*.hpp)
file(GLOB amp_kernels_public_headers ${PROJECT_SOURCE_DIR}/src/amp/kernels/*.hpp)
install(FILES ${PROJECT_SOURCE_DIR}/src/amp/comm.hpp ${PROJECT_SOURCE_DIR}/src/amp/kernels.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp)
install(FILES ${amp_comm_public_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp/comm)
install(FILES ${amp_kernels_public_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp/kernels)
if(TARGET amp_dumpi)
  install(FILES ${PROJECT_SOURCE_DIR}/src/amp/trace/writer/amp_dumpi.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp/trace/writer)
endif()

set(amp_programs amp-ghost amp-sage amp-nobel amp-micro amp-trace)
foreach(program ${amp_programs})
  if(TARGET ${program})
    set_target_properties(${program} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

install(EXPORT AMPTargets NAMESPACE AMP:: DESTINATION ${AMP_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/AMPConfig.cmake.in ${PROJECT_BINARY_DIR}/AMPConfig.cmake
                              INSTALL_DESTINATION ${AMP_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/AMPConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/AMPConfig.cmake ${PROJECT_BINARY_DIR}/AMPConfigVersion.cmake
        DESTINATION ${AMP_INSTALL_CMAKEDIR})
