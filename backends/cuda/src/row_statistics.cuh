#pragma once
// The analysis Auto runs on the device: the longest row (the mean is known on the host). Reads the
// row map once, far less than one SpMV reads.

#include <cstdint>

namespace kspmv::cuda::detail {

template <class Offset>
__global__ void longest_row_kernel(const Offset* row_map, std::int64_t num_rows,
                                   unsigned long long* longest) {
  unsigned long long local = 0;
  const std::int64_t stride = gridDim.x * static_cast<std::int64_t>(blockDim.x);
  for (std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       row < num_rows; row += stride) {
    const auto length = static_cast<unsigned long long>(row_map[row + 1] - row_map[row]);
    local = length > local ? length : local;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const unsigned long long other = __shfl_down_sync(0xffffffffu, local, offset);
    local = other > local ? other : local;
  }
  if (threadIdx.x % 32 == 0) atomicMax(longest, local);
}

}  // namespace kspmv::cuda::detail
