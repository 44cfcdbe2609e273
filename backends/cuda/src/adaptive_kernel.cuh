#pragma once
// Adaptive (CSR-Adaptive / CSR-Stream, Greathouse & Daga): rows are grouped into row blocks of
// about kWindow nonzeros, one per thread block. A block whose nonzeros fit in shared memory streams
// them in with fully coalesced loads and reduces each row there with as many lanes per row as the
// block can spare (CSR-Stream). A block that does not fit holds short rows and one long last row:
// the short rows are streamed the same way, the long one goes to the whole block (CSR-VectorL).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "spmv_arguments.cuh"
#include "stage_products.cuh"

namespace kspmv::cuda::detail {

// Row block b holds the rows whose first nonzero lies in [b*window, (b+1)*window): no search over
// the whole matrix, one binary search per block. Every row but a block's last is shorter than the
// window, so a block fits in 2*window slots unless its last row is long.
template <class Offset>
__global__ void adaptive_row_blocks_kernel(const Offset* row_map, std::int64_t num_rows,
                                           std::int64_t num_blocks, std::int64_t window,
                                           std::int64_t* row_blocks) {
  const std::int64_t block = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (block > num_blocks) return;
  if (block == num_blocks) {
    row_blocks[block] = num_rows;
    return;
  }
  const std::int64_t target = block * window;
  std::int64_t low = 0;
  std::int64_t high = num_rows;
  while (low < high) {  // first row starting at or after target
    const std::int64_t middle = low + (high - low) / 2;
    if (static_cast<std::int64_t>(row_map[middle]) < target) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  row_blocks[block] = low;
}

// The rows [first_row, last_row), whose entries fit in shared memory: products staged there, then
// each row summed by a group of lanes (as many as the block can spare, in fixed order); rows much
// longer than the rest are left to one warp each, so that no group walks a long row alone.
template <class Shape, class T, class Ordinal, class Offset>
__device__ inline void stream_rows(const SpmvArguments<T, Ordinal, Offset>& args,
                                   std::int64_t first_row, std::int64_t last_row, T* s_products) {
  constexpr int kBlockThreads = Shape::kBlockThreads;
  const std::int64_t begin = args.row_begin(first_row);
  const auto count = static_cast<int>(args.row_begin(last_row) - begin);
  stage_products<kBlockThreads, Shape::kLoadBatch>(args, begin, count, s_products);
  __syncthreads();
  const std::int64_t rows = last_row - first_row;
  int lanes = 32;
  while (lanes > 1 && lanes * rows > kBlockThreads) lanes /= 2;
  const int long_row = max(Shape::kWarpRowLength, 8 * lanes);
  const auto local_begin = [&](std::int64_t row) {
    return static_cast<int>(args.row_begin(row) - begin);
  };
  const int lane = static_cast<int>(threadIdx.x) % lanes;
  for (std::int64_t base = first_row; base < last_row; base += kBlockThreads / lanes) {
    const std::int64_t row = base + threadIdx.x / lanes;
    T sum{};
    bool mine = false;
    if (row < last_row) {
      const int row_begin = local_begin(row);
      const int row_end = local_begin(row + 1);
      mine = row_end - row_begin <= long_row;
      if (mine) {
        for (int k = row_begin + lane; k < row_end; k += lanes) sum += s_products[k];
      }
    }
    sum = group_sum(sum, lanes);
    if (lane == 0 && mine) args.store(row, sum);
  }
  const int warp_lane = static_cast<int>(threadIdx.x) % 32;
  for (std::int64_t base = first_row + threadIdx.x / 32 * 32; base < last_row;
       base += kBlockThreads) {
    const std::int64_t candidate = base + warp_lane;
    const bool is_long =
        candidate < last_row && local_begin(candidate + 1) - local_begin(candidate) > long_row;
    for (unsigned pending = __ballot_sync(0xffffffffu, is_long); pending != 0;
         pending &= pending - 1) {
      const std::int64_t row = base + __ffs(pending) - 1;
      const int row_end = local_begin(row + 1);
      T sum{};
      for (int k = local_begin(row) + warp_lane; k < row_end; k += 32) sum += s_products[k];
      sum = group_sum(sum, 32);
      if (warp_lane == 0) args.store(row, sum);
    }
  }
}

template <int BlockThreads, class T, class Ordinal, class Offset>
__device__ inline void block_per_row(const SpmvArguments<T, Ordinal, Offset>& args,
                                     std::int64_t row, T* s_warp_sums) {
  const std::int64_t end = args.row_begin(row + 1);
  T sum{};
#pragma unroll 4
  for (std::int64_t entry = args.row_begin(row) + threadIdx.x; entry < end; entry += BlockThreads) {
    sum += args.product(entry);
  }
  sum = group_sum(sum, 32);
  if (threadIdx.x % 32 == 0) s_warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    T total{};
    for (int warp = 0; warp < BlockThreads / 32; ++warp) total += s_warp_sums[warp];
    args.store(row, total);
  }
}

template <class Shape, class T, class Ordinal, class Offset>
__global__ void __launch_bounds__(Shape::kBlockThreads)
    adaptive_spmv_kernel(SpmvArguments<T, Ordinal, Offset> args, const std::int64_t* row_blocks) {
  __shared__ T s_products[Shape::kCapacity];
  const std::int64_t first_row = row_blocks[blockIdx.x];
  const std::int64_t last_row = row_blocks[blockIdx.x + 1];
  if (first_row == last_row) return;  // a window inside a long row that began earlier
  if (args.row_begin(last_row) - args.row_begin(first_row) <= Shape::kCapacity) {
    stream_rows<Shape>(args, first_row, last_row, s_products);
  } else {
    // Only the last row can be long: the others began and ended inside the block's window.
    stream_rows<Shape>(args, first_row, last_row - 1, s_products);
    __syncthreads();
    block_per_row<Shape::kBlockThreads>(args, last_row - 1, s_products);
  }
}

}  // namespace kspmv::cuda::detail
