#pragma once
// A failing CUDA runtime call becomes an exception naming the call and where it was made.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kspmv::cuda::detail {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                             " failed: " + cudaGetErrorString(status));
  }
}

}  // namespace kspmv::cuda::detail

#define KSPMV_CUDA_CHECK(call) ::kspmv::cuda::detail::check_cuda((call), #call, __FILE__, __LINE__)
