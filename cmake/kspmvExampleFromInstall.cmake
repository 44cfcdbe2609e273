# ctest script: installs kspmv into a scratch prefix, builds an example against it with
# find_package(kspmv) exactly as an application would, and runs it.
#   cmake (-DBUILD_DIR=... | -DKSPMV_CONFIGURE_ARGS="-DX=...|...") -DSOURCE_DIR=... -DWORK_DIR=...
#         -DCXX_COMPILER=... -DEXAMPLE=<dir under examples/> -DRUN="<program>|<arguments>..."
#         [-DRUN_PREFIX="mpirun|-np|2"] [-DCONFIGURE_ARGS="-DX=...|..."] [-DREJECTED_VERSION=9.0]
#         -P kspmvExampleFromInstall.cmake
# Lists are separated by "|" so that they pass through one -D each. The kspmv installed is the build
# in BUILD_DIR or, with KSPMV_CONFIGURE_ARGS (which may be empty), one configured from SOURCE_DIR with
# those arguments alone and built here: what a user's own configure gives, not what the test build
# around this script found. With REJECTED_VERSION, a project asking for find_package(kspmv <that
# version>) must also fail to configure against the install.
if(DEFINED KSPMV_CONFIGURE_ARGS)
  set(BUILD_DIR "${WORK_DIR}/kspmv-build")
  string(REPLACE "|" ";" KSPMV_CONFIGURE_ARGS "${KSPMV_CONFIGURE_ARGS}")
endif()
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER EXAMPLE RUN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "kspmvExampleFromInstall: ${var} is not set")
  endif()
endforeach()
foreach(var RUN RUN_PREFIX CONFIGURE_ARGS)
  string(REPLACE "|" ";" ${var} "${${var}}")
endforeach()
list(POP_FRONT RUN program)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "kspmvExampleFromInstall: ${what} failed (${result})")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
if(DEFINED KSPMV_CONFIGURE_ARGS)
  run_step("kspmv configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BUILD_DIR}"
           -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER} ${KSPMV_CONFIGURE_ARGS})
  run_step("kspmv build" ${CMAKE_COMMAND} --build "${BUILD_DIR}" --parallel)
endif()
run_step("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run_step("configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/${EXAMPLE}" -B "${WORK_DIR}/build"
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${CONFIGURE_ARGS})
run_step("build" ${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run_step("run" ${RUN_PREFIX} "${WORK_DIR}/build/${program}" ${RUN})

if(DEFINED REJECTED_VERSION)
  file(WRITE "${WORK_DIR}/rejected/CMakeLists.txt"
       "cmake_minimum_required(VERSION 3.18)\nproject(rejected LANGUAGES CXX)\n"
       "find_package(kspmv ${REJECTED_VERSION} REQUIRED)\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${WORK_DIR}/rejected" -B "${WORK_DIR}/rejected/build"
                          -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                          ${CONFIGURE_ARGS}
                  RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE errors)
  if(result EQUAL 0 OR NOT errors MATCHES "requested version")
    message(FATAL_ERROR "kspmvExampleFromInstall: find_package(kspmv ${REJECTED_VERSION}) was not "
                        "refused by the package version file:\n${errors}")
  endif()
endif()
