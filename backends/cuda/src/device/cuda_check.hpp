#pragma once
// A failing CUDA runtime call becomes a kspmv::device_error (kspmv::out_of_memory where memory ran
// out) naming the call, where it was made and CUDA's message, and carrying CUDA's error code.

#include <cuda_runtime_api.h>

#include <string>

#include "kspmv/errors.hpp"

namespace kspmv::cuda::detail {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  const std::string message = std::string(file) + ":" + std::to_string(line) + ": " + call +
                              " failed: " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation) throw out_of_memory(message, status);
  throw device_error(message, status);
}

}  // namespace kspmv::cuda::detail

#define KSPMV_CUDA_CHECK(call) ::kspmv::cuda::detail::check_cuda((call), #call, __FILE__, __LINE__)
