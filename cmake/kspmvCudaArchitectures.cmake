# Which GPUs the CUDA backend is compiled for. Under Kokkos::Cuda its kernels run on the GPU Kokkos
# was built for, so a backend compiled without that GPU would build and install fine and then fail
# at its first call (kspmv::unsupported_device); the contradiction is refused here, at configure
# time, instead. The functions read only their arguments (and, for the expansion, the variables
# enable_language(CUDA) sets), so that unit_tests/cmake checks them with cmake -P, without Kokkos,
# CUDA or a GPU.

include_guard(GLOBAL)

# kspmv_cuda_architecture_of_kokkos(<out> <name>)
# The CUDA architecture of one entry of Kokkos_ARCH (the architectures Kokkos was built for, host
# and device alike), empty for anything but an NVIDIA GPU. Kokkos names every NVIDIA GPU by its
# generation and compute capability (AMPERE80, HOPPER90, BLACKWELL120), and so does every release
# since Kokkos 3, so the number is read off the name rather than looked up in a copy of Kokkos'
# table; only a new generation's name needs adding. Nothing else in Kokkos_ARCH has such a name
# (AMD's VEGA90A, Arm's ARMV81, IBM's POWER9 are not matched).
function(kspmv_cuda_architecture_of_kokkos out name)
  string(TOUPPER "${name}" name)
  if(name MATCHES "^(KEPLER|MAXWELL|PASCAL|VOLTA|TURING|AMPERE|ADA|HOPPER|BLACKWELL)([0-9]+)$")
    set(${out} ${CMAKE_MATCH_2} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# kspmv_cuda_architectures(<out> REQUESTED <list> KOKKOS_CUDA <bool> KOKKOS_ARCH <names>...
#                          [WHY <var>])
# The value for CMAKE_CUDA_ARCHITECTURES, from what the user asked for (REQUESTED: their
# CMAKE_CUDA_ARCHITECTURES or CUDAARCHS, empty when they set neither) and the Kokkos found
# (KOKKOS_CUDA: Kokkos_ENABLE_CUDA; KOKKOS_ARCH: Kokkos_ARCH):
#   - nothing asked for: Kokkos' GPU when Kokkos has CUDA; otherwise (the backend alone, on its
#     raw-pointer API) 90, Hopper, the GPU its launch policy was measured on;
#   - a list of entries such as 80, 80-real, 80-virtual, 90a (CMake's syntax): kept as given, but
#     with Kokkos CUDA it must name Kokkos' GPU in one of those forms, or configuring stops with a
#     message naming both;
#   - native, all or all-major: kept for CMake to expand, which it can only do once it has found
#     the compiler (native: the GPUs of this machine). Check the expansion by calling this again
#     with it (kspmv_expand_cuda_architectures).
# WHY receives where the list came from, for the configure output.
function(kspmv_cuda_architectures out)
  cmake_parse_arguments(arg "" "KOKKOS_CUDA;WHY" "REQUESTED;KOKKOS_ARCH" ${ARGN})
  set(kokkos_archs "")
  set(kokkos_names "")
  if(arg_KOKKOS_CUDA)
    foreach(name IN LISTS arg_KOKKOS_ARCH)
      kspmv_cuda_architecture_of_kokkos(arch ${name})
      if(arch)
        list(APPEND kokkos_archs ${arch})
        list(APPEND kokkos_names ${name})
      endif()
    endforeach()
  endif()

  if("${arg_REQUESTED}" STREQUAL "")
    if(kokkos_archs)
      set(result ${kokkos_archs})
      set(why "Kokkos was built for ${kokkos_names}")
    elseif(arg_KOKKOS_CUDA)
      message(FATAL_ERROR "kspmv: Kokkos was built with CUDA, but none of its architectures "
                          "(Kokkos_ARCH: ${arg_KOKKOS_ARCH}) is an NVIDIA GPU kspmv knows: set "
                          "CMAKE_CUDA_ARCHITECTURES to its compute capability (90 for Hopper)")
    else()
      set(result 90)
      set(why "the default for a CUDA backend without Kokkos CUDA: Hopper")
    endif()
  elseif(arg_REQUESTED MATCHES "^(native|all|all-major)$")
    set(result ${arg_REQUESTED})
    set(why "CMAKE_CUDA_ARCHITECTURES")
  else()
    set(requested_archs "")
    foreach(entry IN LISTS arg_REQUESTED)
      if(NOT entry MATCHES "^([0-9]+)[af]?(-real|-virtual)?$")
        message(FATAL_ERROR "kspmv: CMAKE_CUDA_ARCHITECTURES entry '${entry}' is not an "
                            "architecture such as 80, 80-real, 80-virtual or 90a (a list of them, "
                            "or native, all or all-major alone)")
      endif()
      list(APPEND requested_archs ${CMAKE_MATCH_1})
    endforeach()
    foreach(arch name IN ZIP_LISTS kokkos_archs kokkos_names)
      if(NOT arch IN_LIST requested_archs)
        message(FATAL_ERROR "kspmv: CMAKE_CUDA_ARCHITECTURES is ${arg_REQUESTED}, but Kokkos was "
                            "built for ${name} (CUDA architecture ${arch}), the GPU kspmv's CUDA "
                            "kernels run on under Kokkos::Cuda: add ${arch} to "
                            "CMAKE_CUDA_ARCHITECTURES, or leave it unset to follow Kokkos")
      endif()
    endforeach()
    set(result ${arg_REQUESTED})
    set(why "CMAKE_CUDA_ARCHITECTURES")
  endif()

  set(${out} "${result}" PARENT_SCOPE)
  if(arg_WHY)
    set(${arg_WHY} "${why}" PARENT_SCOPE)
  endif()
endfunction()

# kspmv_expand_cuda_architectures(<out> <value>)
# <value> with native, all or all-major replaced by the list CMake compiles for in its place
# (CMAKE_CUDA_ARCHITECTURES_NATIVE, _ALL, _ALL_MAJOR, which enable_language(CUDA) sets), so that it
# can be checked against Kokkos and named by the backend as it is compiled; any other value as it is.
function(kspmv_expand_cuda_architectures out value)
  if(value MATCHES "^(native|all|all-major)$")
    string(TOUPPER "${value}" keyword)
    string(REPLACE "-" "_" keyword "${keyword}")
    if(NOT CMAKE_CUDA_ARCHITECTURES_${keyword})
      message(FATAL_ERROR "kspmv: CMAKE_CUDA_ARCHITECTURES=${value} gave CMake no architecture "
                          "(native: it found no GPU on this machine): name them instead, 90 for "
                          "Hopper")
    endif()
    set(value "${CMAKE_CUDA_ARCHITECTURES_${keyword}}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
