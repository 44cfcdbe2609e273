# ctest script: installs kspmv into a scratch prefix, builds an example against it with
# find_package(kspmv) exactly as an application would, and runs it.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX_COMPILER=... -DEXAMPLE=<dir under
#         examples/> -DRUN="<program>|<arguments>..." [-DRUN_PREFIX="mpirun|-np|2"]
#         [-DCONFIGURE_ARGS="-DX=...|..."] -P kspmvExampleFromInstall.cmake
# Lists are separated by "|" so that they pass through one -D each.
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
run_step("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run_step("configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/${EXAMPLE}" -B "${WORK_DIR}/build"
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${CONFIGURE_ARGS})
run_step("build" ${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run_step("run" ${RUN_PREFIX} "${WORK_DIR}/build/${program}" ${RUN})
