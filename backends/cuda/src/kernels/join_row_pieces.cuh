#pragma once
// A row whose sum was cut into pieces computed by different blocks of one launch is joined without
// floating-point atomics: each block stores its piece and counts itself in with an integer atomic;
// the last to arrive adds the pieces up in a fixed order (so the result is bitwise reproducible),
// writes y, and resets the counter for the next launch.

#include <cstdint>

#include "kernels/spmv_arguments.cuh"

namespace kspmv::cuda::detail {

// Called by one whole warp of each of the blocks first..last (inclusive) after lane 0 stored this
// block's piece; piece_at(b) reads block b's piece (with load_coherent).
template <class Args, class PieceAt>
__device__ inline void join_row_pieces(const Args& args, int* arrivals, std::int64_t row,
                                       std::int64_t first, std::int64_t last, PieceAt piece_at) {
  const int lane = threadIdx.x % 32;
  int arrived = 0;
  if (lane == 0) {
    __threadfence();
    arrived = atomicAdd(arrivals, 1);
  }
  arrived = __shfl_sync(0xffffffffu, arrived, 0);
  if (arrived != last - first) return;
  __threadfence();
  typename Args::value_type sum{};
  for (std::int64_t block = first + lane; block <= last; block += 32) sum += piece_at(block);
  sum = group_sum(sum, 32);
  if (lane == 0) {
    args.store(row, sum);
    *arrivals = 0;
  }
}

}  // namespace kspmv::cuda::detail
