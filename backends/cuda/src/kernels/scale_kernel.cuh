#pragma once
// y = beta*y: the whole call when alpha == 0 or A has no nonzeros (A and x are not read), and the
// start of a scattered transposed call. beta == 0 writes zeros without reading y.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/cuda_check.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kspmv/cuda/operands.hpp"

namespace kspmv::cuda::detail {

template <class T>
__global__ void scale_kernel(T* y, std::int64_t length, std::int64_t stride, T beta,
                             bool beta_is_zero) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= length) return;
  T* target = y + i * stride;
  *target = beta_is_zero ? T{} : beta * *target;
}

// Every vector of y scaled, a launch each.
template <class Scalar>
void scale_vectors(const DenseBlock<Scalar>& y, Scalar beta, cudaStream_t stream) {
  constexpr int kThreads = 256;
  for (std::int64_t j = 0; j < y.num_vectors; ++j) {
    scale_kernel<<<grid_for(y.num_rows, kThreads), kThreads, 0, stream>>>(
        to_device(y.data) + j * y.col_stride, y.num_rows, y.row_stride, to_device(beta),
        beta == Scalar(0));
    KSPMV_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace kspmv::cuda::detail
