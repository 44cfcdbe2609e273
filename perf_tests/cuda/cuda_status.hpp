#pragma once
// CUDA runtime errors as exceptions, naming the call that failed.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kspmv::bench {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

}  // namespace kspmv::bench
