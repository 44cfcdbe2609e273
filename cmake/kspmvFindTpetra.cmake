# Decides whether the Tpetra integration is built (KSPMV_BUILD_TPETRA) and finds Tpetra and MPI for
# it. Tpetra brings its own Kokkos: the integration needs it to be the Kokkos kspmv was configured
# with (on Debian 12: Trilinos 13.2 and its Kokkos 3.4). Which one that is, is read from where
# TpetraConfig.cmake lies (its sibling Kokkos directory) before any of Tpetra's CMake files is
# loaded, since loading them beside another Kokkos would define Kokkos::kokkos twice.

include_guard(GLOBAL)

set(KSPMV_BUILD_TPETRA OFF)
if(KSPMV_ENABLE_TPETRA STREQUAL "OFF")
  return()
endif()
if(NOT KSPMV_ENABLE_KOKKOS)
  if(KSPMV_ENABLE_TPETRA STREQUAL "ON")
    message(FATAL_ERROR "KSPMV_ENABLE_TPETRA=ON needs the Kokkos front end (KSPMV_ENABLE_KOKKOS)")
  endif()
  return()
endif()

find_path(KSPMV_TPETRA_CONFIG_DIR TpetraConfig.cmake
  HINTS ${Tpetra_DIR} $ENV{Tpetra_DIR} ${Tpetra_ROOT} $ENV{Tpetra_ROOT}
  PATH_SUFFIXES lib/cmake/Tpetra lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/Tpetra cmake/Tpetra
  PATHS ${CMAKE_PREFIX_PATH} /usr /usr/local NO_DEFAULT_PATH)
if(NOT KSPMV_TPETRA_CONFIG_DIR)
  if(KSPMV_ENABLE_TPETRA STREQUAL "ON")
    message(FATAL_ERROR "KSPMV_ENABLE_TPETRA=ON but no TpetraConfig.cmake was found: set Tpetra_DIR")
  endif()
  message(STATUS "kspmv: Tpetra integration off (Tpetra not found)")
  return()
endif()

get_filename_component(_kspmv_tpetra_kokkos "${KSPMV_TPETRA_CONFIG_DIR}/../Kokkos" REALPATH)
get_filename_component(_kspmv_our_kokkos "${Kokkos_DIR}" REALPATH)
if(NOT _kspmv_tpetra_kokkos STREQUAL _kspmv_our_kokkos)
  string(CONCAT _kspmv_why "Tpetra at ${KSPMV_TPETRA_CONFIG_DIR} was built with the Kokkos at "
                           "${_kspmv_tpetra_kokkos}, kspmv is configured with ${_kspmv_our_kokkos}")
  if(KSPMV_ENABLE_TPETRA STREQUAL "ON")
    message(FATAL_ERROR "KSPMV_ENABLE_TPETRA=ON: ${_kspmv_why}")
  endif()
  message(STATUS "kspmv: Tpetra integration off: ${_kspmv_why}")
  return()
endif()

find_package(MPI REQUIRED COMPONENTS CXX)
find_package(Tpetra REQUIRED CONFIG PATHS ${KSPMV_TPETRA_CONFIG_DIR} NO_DEFAULT_PATH)
set(KSPMV_BUILD_TPETRA ON)
# Belos (the solve test and the example), from the same Trilinos when it is there: its Debian
# configuration also loads AztecOO, Xpetra, Thyra, EpetraExt, Triutils and RTOp.
get_filename_component(_kspmv_trilinos_cmake "${KSPMV_TPETRA_CONFIG_DIR}/.." ABSOLUTE)
find_package(Belos CONFIG QUIET PATHS ${_kspmv_trilinos_cmake}/Belos NO_DEFAULT_PATH)
message(STATUS "kspmv: Tpetra integration on (Tpetra at ${KSPMV_TPETRA_CONFIG_DIR}; Belos found: "
               "${Belos_FOUND})")
