#pragma once
// y = beta*y: the whole call when alpha == 0 or A has no nonzeros (A and x are not read). beta == 0
// writes zeros without reading y.

#include <cstdint>

#include "device/device_scalar.cuh"

namespace kspmv::cuda::detail {

template <class T>
__global__ void scale_kernel(T* y, std::int64_t length, std::int64_t stride, T beta,
                             bool beta_is_zero) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= length) return;
  T* target = y + i * stride;
  *target = beta_is_zero ? T{} : beta * *target;
}

}  // namespace kspmv::cuda::detail
