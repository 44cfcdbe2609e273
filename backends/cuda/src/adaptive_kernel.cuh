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

template <int BlockThreads, int Capacity, class T, class Ordinal, class Offset>
__device__ inline void stream_rows(const SpmvArguments<T, Ordinal, Offset>& args,
                                   std::int64_t first_row, std::int64_t last_row, T* s_products) {
  const std::int64_t begin = args.row_begin(first_row);
  const auto count = static_cast<int>(args.row_begin(last_row) - begin);
  stage_products<BlockThreads, Capacity / BlockThreads>(args, begin, count, s_products);
  __syncthreads();
  const std::int64_t rows = last_row - first_row;
  int lanes = 32;
  while (lanes > 1 && lanes * rows > BlockThreads) lanes /= 2;
  const int lane = static_cast<int>(threadIdx.x) % lanes;
  const int groups = BlockThreads / lanes;
  for (std::int64_t base = first_row; base < last_row; base += groups) {
    const std::int64_t row = base + threadIdx.x / lanes;
    T sum{};
    if (row < last_row) {
      const auto row_end = static_cast<int>(args.row_begin(row + 1) - begin);
      for (auto k = static_cast<int>(args.row_begin(row) - begin) + lane; k < row_end; k += lanes) {
        sum += s_products[k];
      }
    }
    sum = group_sum(sum, lanes);
    if (lane == 0 && row < last_row) args.store(row, sum);
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

template <int BlockThreads, int Capacity, class T, class Ordinal, class Offset>
__global__ void __launch_bounds__(BlockThreads)
    adaptive_spmv_kernel(SpmvArguments<T, Ordinal, Offset> args, const std::int64_t* row_blocks) {
  __shared__ T s_products[Capacity];
  const std::int64_t first_row = row_blocks[blockIdx.x];
  const std::int64_t last_row = row_blocks[blockIdx.x + 1];
  if (first_row == last_row) return;  // a window inside a long row that began earlier
  if (args.row_begin(last_row) - args.row_begin(first_row) <= Capacity) {
    stream_rows<BlockThreads, Capacity>(args, first_row, last_row, s_products);
  } else {
    // Only the last row can be long: the others began and ended inside the block's window.
    stream_rows<BlockThreads, Capacity>(args, first_row, last_row - 1, s_products);
    __syncthreads();
    block_per_row<BlockThreads>(args, last_row - 1, s_products);
  }
}

}  // namespace kspmv::cuda::detail
