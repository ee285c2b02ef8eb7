# SPDX-License-Identifier: BSD-3-Clause
# Finds libotf2 (Debian: libotf2-trace-dev) for `amp-trace otf2` and defines the target amp::otf2.
# pkg-config's `otf2` module first, then `otf2-config --cflags/--ldflags/--libs`; configure stops
# with a message saying what to install when neither finds it.
if(TARGET amp::otf2)
  return()
endif()

find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(AMP_OTF2 QUIET IMPORTED_TARGET otf2)
endif()
if(TARGET PkgConfig::AMP_OTF2)
  add_library(amp::otf2 ALIAS PkgConfig::AMP_OTF2)
  message(STATUS "OTF2 ${AMP_OTF2_VERSION} (pkg-config)")
  return()
endif()

find_program(AMP_OTF2_CONFIG otf2-config)
if(AMP_OTF2_CONFIG)
  foreach(what cflags ldflags libs)
    execute_process(COMMAND ${AMP_OTF2_CONFIG} --${what} OUTPUT_VARIABLE amp_otf2_${what}
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE amp_otf2_rc)
    separate_arguments(amp_otf2_${what} UNIX_COMMAND "${amp_otf2_${what}}")
  endforeach()
  find_path(AMP_OTF2_INCLUDE_DIR otf2/otf2.h)
  if(AMP_OTF2_INCLUDE_DIR AND amp_otf2_libs)
    add_library(amp::otf2 INTERFACE IMPORTED)
    set_target_properties(amp::otf2 PROPERTIES
      INTERFACE_COMPILE_OPTIONS "${amp_otf2_cflags}"
      INTERFACE_INCLUDE_DIRECTORIES "${AMP_OTF2_INCLUDE_DIR}"
      INTERFACE_LINK_OPTIONS "${amp_otf2_ldflags}"
      INTERFACE_LINK_LIBRARIES "${amp_otf2_libs}")
    message(STATUS "OTF2 (otf2-config: ${AMP_OTF2_CONFIG})")
    return()
  endif()
endif()

message(FATAL_ERROR "libotf2 not found (needed by `amp-trace otf2`): neither pkg-config's 'otf2' module nor "
                    "otf2-config is available. On Debian/Ubuntu: apt-get install libotf2-trace-dev otf2-tools "
                    "(./amp build installs them); elsewhere install OTF2 3.x and put its otf2-config on PATH or "
                    "its lib/pkgconfig on PKG_CONFIG_PATH.")
