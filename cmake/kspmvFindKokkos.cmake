# Finds Kokkos and Kokkos Kernels and yields the modern imported targets Kokkos::kokkos and
# Kokkos::kokkoskernels on every supported version. Included by the build and by the installed
# kspmvConfig.cmake, so users see the same behaviour.
#
# Kokkos 4.x installs both targets itself, and this module leaves them alone. Debian 12's Trilinos
# 13.2 packaging (Kokkos 3.4.01) does not: its Kokkos::kokkos names a non-existent include
# directory (<prefix>/lib/include), which this module removes from the target (no consumer could
# generate a build with it), and its KokkosKernels package only defines trilinos_kokkoskernels,
# with no include directories and no version file, so Kokkos::kokkoskernels is made for it. Those
# quirks are repaired here and nowhere else.

include_guard(GLOBAL)

find_package(Kokkos REQUIRED)
find_package(KokkosKernels REQUIRED)

# Drop include directories that do not exist (CMake refuses to generate with them). Only Debian's
# Kokkos 3.4 names one; a Kokkos whose directories all exist is left exactly as it was found.
get_target_property(_kspmv_kokkos_includes Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
set(_kspmv_kokkos_needs_repair FALSE)
foreach(_dir IN LISTS _kspmv_kokkos_includes)
  if(NOT _dir MATCHES "^\\$<" AND NOT EXISTS "${_dir}")
    set(_kspmv_kokkos_needs_repair TRUE)
  endif()
endforeach()
if(_kspmv_kokkos_needs_repair)
  set(_kspmv_existing_includes "")
  foreach(_dir IN LISTS _kspmv_kokkos_includes)
    if(_dir MATCHES "^\\$<" OR EXISTS "${_dir}")
      list(APPEND _kspmv_existing_includes "${_dir}")
    endif()
  endforeach()
  if(NOT _kspmv_existing_includes AND KokkosKernels_INCLUDE_DIRS)
    set(_kspmv_existing_includes ${KokkosKernels_INCLUDE_DIRS})  # Trilinos: one include dir
  endif()
  set_target_properties(Kokkos::kokkos PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_kspmv_existing_includes}")
endif()

if(NOT TARGET Kokkos::kokkoskernels)
  if(NOT TARGET trilinos_kokkoskernels)
    message(FATAL_ERROR "Found KokkosKernels at ${KokkosKernels_DIR} but it defines neither "
                        "Kokkos::kokkoskernels nor trilinos_kokkoskernels")
  endif()
  add_library(Kokkos::kokkoskernels INTERFACE IMPORTED)
  set_target_properties(Kokkos::kokkoskernels PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${KokkosKernels_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "${KokkosKernels_LIBRARIES};${KokkosKernels_TPL_LIBRARIES};Kokkos::kokkos")
  if(KokkosKernels_LIBRARY_DIRS)
    set_property(TARGET Kokkos::kokkoskernels APPEND PROPERTY
      INTERFACE_LINK_DIRECTORIES "${KokkosKernels_LIBRARY_DIRS}")
  endif()
endif()

if(NOT DEFINED Kokkos_ENABLE_CUDA)
  set(Kokkos_ENABLE_CUDA OFF)
endif()
message(STATUS "kspmv: Kokkos ${Kokkos_VERSION} (CUDA: ${Kokkos_ENABLE_CUDA}) from ${Kokkos_DIR}")
