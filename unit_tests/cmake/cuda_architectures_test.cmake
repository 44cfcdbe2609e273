# The CUDA backend's choice of architectures (cmake/kspmvCudaArchitectures.cmake), rule by rule:
#   cmake -P unit_tests/cmake/cuda_architectures_test.cmake
# Needs neither Kokkos nor CUDA nor a GPU: Kokkos is stood for by the Kokkos_ENABLE_CUDA and
# Kokkos_ARCH it would export, CMake's CUDA support by the expansions enable_language(CUDA) sets.
# A call that must stop configuring runs in a cmake -P of its own (this script with -DCASE=<name>),
# whose exit code and message are checked.
cmake_minimum_required(VERSION 3.18)  # the policies of the build that includes the module
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/kspmvCudaArchitectures.cmake)

if(DEFINED CASE)
  if(CASE STREQUAL "user_90_kokkos_ampere80")
    kspmv_cuda_architectures(archs REQUESTED 90 KOKKOS_CUDA ON KOKKOS_ARCH SPR AMPERE80)
  elseif(CASE STREQUAL "user_list_without_kokkos_hopper90")
    kspmv_cuda_architectures(archs REQUESTED 80-real 86 KOKKOS_CUDA ON KOKKOS_ARCH HOPPER90)
  elseif(CASE STREQUAL "user_virtual_89_kokkos_ampere80")
    kspmv_cuda_architectures(archs REQUESTED 89-virtual KOKKOS_CUDA ON KOKKOS_ARCH AMPERE80)
  elseif(CASE STREQUAL "native_gpu_not_kokkos")
    set(CMAKE_CUDA_ARCHITECTURES_NATIVE 90-real)
    kspmv_expand_cuda_architectures(expanded native)
    kspmv_cuda_architectures(archs REQUESTED ${expanded} KOKKOS_CUDA ON KOKKOS_ARCH AMPERE80)
  elseif(CASE STREQUAL "native_without_gpu")
    set(CMAKE_CUDA_ARCHITECTURES_NATIVE "")
    kspmv_expand_cuda_architectures(expanded native)
  elseif(CASE STREQUAL "kokkos_cuda_without_nvidia_arch")
    kspmv_cuda_architectures(archs REQUESTED "" KOKKOS_CUDA ON KOKKOS_ARCH ZEN3)
  elseif(CASE STREQUAL "sm_name")
    kspmv_cuda_architectures(archs REQUESTED sm_90 KOKKOS_CUDA OFF)
  elseif(CASE STREQUAL "keyword_in_a_list")
    kspmv_cuda_architectures(archs REQUESTED native 90 KOKKOS_CUDA OFF)
  else()
    message(FATAL_ERROR "no case ${CASE}")
  endif()
  message("CASE ${CASE} did not stop; it gave '${archs}${expanded}'")
  return()
endif()

function(expect what actual expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(SEND_ERROR "${what}: '${actual}', expected '${expected}'")
  endif()
endfunction()

# expect_refused(<case> <regex>...): CASE must stop with a message matching every regex.
function(expect_refused case)
  execute_process(COMMAND ${CMAKE_COMMAND} -DCASE=${case} -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  string(REGEX REPLACE "[ \n]+" " " output "${output}")  # CMake wraps long messages
  if(result EQUAL 0)
    message(SEND_ERROR "${case} was not refused: ${output}")
  endif()
  foreach(regex IN LISTS ARGN)
    if(NOT output MATCHES "${regex}")
      message(SEND_ERROR "${case}: the message does not match '${regex}': ${output}")
    endif()
  endforeach()
endfunction()

# Kokkos' names of NVIDIA GPUs, and names of other hardware that must not pass for one.
foreach(name_arch IN ITEMS KEPLER35=35 MAXWELL50=50 PASCAL60=60 PASCAL61=61 VOLTA70=70 VOLTA72=72
                           TURING75=75 AMPERE80=80 AMPERE86=86 ADA89=89 HOPPER90=90
                           BLACKWELL100=100 BLACKWELL120=120 Ampere80=80 VEGA90A= AMD_GFX942=
                           ARMV81= ARMV9_GRACE= POWER9= ZEN3= SPR= INTEL_PVC= NATIVE=)
  string(REGEX MATCH "^(.*)=(.*)$" name_arch "${name_arch}")
  kspmv_cuda_architecture_of_kokkos(arch ${CMAKE_MATCH_1})
  expect("Kokkos_ARCH entry ${CMAKE_MATCH_1}" "${arch}" "${CMAKE_MATCH_2}")
endforeach()

# Nothing asked for: Kokkos' GPU when Kokkos has CUDA, the host architecture beside it ignored.
kspmv_cuda_architectures(archs REQUESTED "" KOKKOS_CUDA ON KOKKOS_ARCH SPR HOPPER90 WHY why)
expect("Kokkos HOPPER90" "${archs}" "90")
expect("Kokkos HOPPER90, why" "${why}" "Kokkos was built for HOPPER90")
kspmv_cuda_architectures(archs KOKKOS_CUDA ON KOKKOS_ARCH AMPERE80 ZEN3)
expect("Kokkos AMPERE80" "${archs}" "80")
kspmv_cuda_architectures(archs KOKKOS_CUDA ON KOKKOS_ARCH ADA89)
expect("Kokkos ADA89" "${archs}" "89")

# Nothing asked for and no Kokkos CUDA (the backend alone): Hopper, whatever Kokkos_ARCH says.
kspmv_cuda_architectures(archs REQUESTED "" KOKKOS_CUDA OFF KOKKOS_ARCH "" WHY why)
expect("no Kokkos CUDA" "${archs}" "90")
expect("no Kokkos CUDA, why" "${why}" "the default for a CUDA backend without Kokkos CUDA: Hopper")
kspmv_cuda_architectures(archs KOKKOS_CUDA "")
expect("no Kokkos at all" "${archs}" "90")
kspmv_cuda_architectures(archs KOKKOS_CUDA OFF KOKKOS_ARCH SKX AMPERE80)
expect("Kokkos without CUDA, with an NVIDIA architecture" "${archs}" "90")

# Asked for, with Kokkos CUDA: kept as given when it names Kokkos' GPU in any form.
foreach(requested IN ITEMS "90" "80;90" "90-real" "90-virtual" "90a" "80-real;90-real;100")
  kspmv_cuda_architectures(archs REQUESTED ${requested} KOKKOS_CUDA ON KOKKOS_ARCH SPR HOPPER90
                           WHY why)
  expect("${requested} with Kokkos HOPPER90" "${archs}" "${requested}")
  expect("${requested} with Kokkos HOPPER90, why" "${why}" "CMAKE_CUDA_ARCHITECTURES")
endforeach()
kspmv_cuda_architectures(archs REQUESTED "80-real;90" KOKKOS_CUDA ON KOKKOS_ARCH AMPERE80)
expect("80-real;90 with Kokkos AMPERE80" "${archs}" "80-real;90")

# Asked for, without Kokkos CUDA: anything well formed.
foreach(requested IN ITEMS "80" "75-real;86" "100-virtual")
  kspmv_cuda_architectures(archs REQUESTED ${requested} KOKKOS_CUDA OFF)
  expect("${requested} without Kokkos CUDA" "${archs}" "${requested}")
endforeach()

# native, all and all-major: left to CMake, then checked as what it made of them.
foreach(keyword IN ITEMS native all all-major)
  kspmv_cuda_architectures(archs REQUESTED ${keyword} KOKKOS_CUDA ON KOKKOS_ARCH HOPPER90)
  expect("${keyword} with Kokkos HOPPER90" "${archs}" "${keyword}")
endforeach()
set(CMAKE_CUDA_ARCHITECTURES_NATIVE 90-real)
set(CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR 75-real 80-real 90)
kspmv_expand_cuda_architectures(expanded native)
expect("native expanded" "${expanded}" "90-real")
kspmv_expand_cuda_architectures(expanded all-major)
expect("all-major expanded" "${expanded}" "75-real;80-real;90")
kspmv_expand_cuda_architectures(expanded "80;90")
expect("a list expanded" "${expanded}" "80;90")
kspmv_cuda_architectures(archs REQUESTED ${expanded} KOKKOS_CUDA ON KOKKOS_ARCH AMPERE80)
expect("all-major's expansion with Kokkos AMPERE80" "${archs}" "80;90")

# Refused: a list without Kokkos' GPU names both; malformed requests; nothing to go by.
expect_refused(user_90_kokkos_ampere80 "CMAKE_CUDA_ARCHITECTURES is 90," "AMPERE80"
               "CUDA architecture 80")
expect_refused(user_list_without_kokkos_hopper90 "is 80-real;86," "HOPPER90")
expect_refused(user_virtual_89_kokkos_ampere80 "is 89-virtual," "AMPERE80")
expect_refused(native_gpu_not_kokkos "is 90-real," "AMPERE80")
expect_refused(native_without_gpu "CMAKE_CUDA_ARCHITECTURES=native" "no GPU")
expect_refused(kokkos_cuda_without_nvidia_arch "Kokkos_ARCH: ZEN3")
expect_refused(sm_name "entry 'sm_90'")
expect_refused(keyword_in_a_list "entry 'native'")
