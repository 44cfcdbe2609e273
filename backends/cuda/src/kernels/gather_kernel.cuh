#pragma once
// out[p] = in[source[p]]: refreshes the plan's transposed copy of A's values, kept while the
// caller declares them constant; places A^T's entries in the transposed products' slots.

#include <cstdint>

namespace kspmv::cuda::detail {

template <class T, class Offset>
__global__ void gather_kernel(const T* in, const Offset* source, T* out, std::int64_t length) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p < length) out[p] = in[static_cast<std::int64_t>(source[p])];
}

}  // namespace kspmv::cuda::detail
