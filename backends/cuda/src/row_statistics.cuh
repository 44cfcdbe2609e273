#pragma once
// The analysis the plan runs on the device: the longest row (the mean is known on the host), and
// how far from the diagonal a sample of rows reaches for its columns. Reads the row map once and a
// few thousand rows of column indices, far less than one SpMV reads.

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

// Column reach: an entry (row, column) reaches |column - row * cols / rows| columns away from the
// diagonal. Histogram bucket b counts the sampled entries whose reach is below 2^b and at least
// 2^(b-1) (bucket 0: on the diagonal).
inline constexpr int kReachBuckets = 64;
inline constexpr std::int64_t kReachSampleRows = 4096;
inline constexpr int kReachSampleEntriesPerRow = 256;

// A warp per sampled row: rows 0, row_step, 2 * row_step, ...
template <class Offset, class Ordinal>
__global__ void column_reach_kernel(const Offset* row_map, const Ordinal* entries,
                                    std::int64_t num_rows, std::int64_t num_cols,
                                    std::int64_t row_step, unsigned long long* histogram) {
  __shared__ unsigned block_histogram[kReachBuckets];
  for (int b = threadIdx.x; b < kReachBuckets; b += blockDim.x) block_histogram[b] = 0;
  __syncthreads();
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t row = warp * row_step;
  if (row < num_rows) {
    const auto begin = static_cast<std::int64_t>(row_map[row]);
    const auto end = static_cast<std::int64_t>(row_map[row + 1]);
    const std::int64_t sampled_end =
        end - begin > kReachSampleEntriesPerRow ? begin + kReachSampleEntriesPerRow : end;
    const double diagonal =
        static_cast<double>(row) * static_cast<double>(num_cols) / static_cast<double>(num_rows);
    for (std::int64_t entry = begin + lane; entry < sampled_end; entry += 32) {
      const auto reach =
          static_cast<unsigned long long>(fabs(static_cast<double>(entries[entry]) - diagonal));
      atomicAdd(&block_histogram[64 - __clzll(static_cast<long long>(reach))], 1u);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kReachBuckets; b += blockDim.x) {
    if (block_histogram[b] != 0) {
      atomicAdd(histogram + b, static_cast<unsigned long long>(block_histogram[b]));
    }
  }
}

}  // namespace kspmv::cuda::detail
