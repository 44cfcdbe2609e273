# kspmv_warnings(<target>): strict warnings for kspmv's own code (never for third-party headers,
# which come in as SYSTEM includes through their imported targets).
function(kspmv_warnings target)
  # GCC's maybe-uninitialized fires inside Kokkos Kernels' templates at our instantiation points;
  # being a middle-end warning, -isystem cannot keep it out of our code. Clang-based compilers
  # (hipcc, icpx) do not know the option and reject it under -Werror.
  set(cxx_flags -Wall -Wextra -Wpedantic -Wshadow
                $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
  set(cuda_flags -Xcompiler=-Wall,-Wextra)
  if(KSPMV_WARNINGS_AS_ERRORS)
    list(APPEND cxx_flags -Werror)
    list(APPEND cuda_flags --Werror=all-warnings -Xcompiler=-Werror)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${cxx_flags}>
    $<$<COMPILE_LANGUAGE:CUDA>:${cuda_flags}>)
endfunction()
