#pragma once
// Vector: a group of Lanes threads (2..32, a sub-warp) per row, as CUSP chooses from the mean row
// length; the group strides over the row and reduces with shuffles in a fixed order.

#include <cstdint>

#include "spmv_arguments.cuh"

namespace kspmv::cuda::detail {

template <int Lanes, class Args>
__global__ void vector_spmv_kernel(Args args) {
  using T = typename Args::value_type;
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = thread / Lanes;
  const int lane = static_cast<int>(threadIdx.x % Lanes);
  T sum{};
  // Rows past the end still take part in the shuffles below, which need the whole warp.
  if (row < args.num_rows) {
    if (lane == 0) args.prefetch_y(row);
    const std::int64_t end = args.row_begin(row + 1);
    for (std::int64_t entry = args.row_begin(row) + lane; entry < end; entry += Lanes) {
      sum += args.product(entry);
    }
  }
  sum = group_sum(sum, Lanes);
  if (lane == 0 && row < args.num_rows) args.store(row, sum);
}

// CUSP's rule: the smallest power of two lanes that covers the mean row length, at most a warp.
inline int vector_lanes_for(double mean_row_length) {
  int lanes = 2;
  while (lanes < 32 && lanes < mean_row_length) lanes *= 2;
  return lanes;
}

}  // namespace kspmv::cuda::detail
