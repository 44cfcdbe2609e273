#pragma once
// The analysis the plan runs on the device: the longest row (the mean is known on the host), the
// rows too long for one group of lanes of a rank-2 call, the steps Vector's warps would take, and
// how far from the diagonal a sample of rows reaches for its columns. Reads the row map once and a
// few thousand rows of column indices, far less than one SpMV reads.

#include <cstdint>

namespace kspmv::cuda::detail {

// What the row lengths say, where row_lengths_kernel accumulates them.
enum RowLengthFigure {
  kLongestRow,
  kLongRows,
  kLongRowEntriesInAll,
  kVectorWarpSteps,
  kRowLengthFigures
};

// figures[kLongestRow] = the longest row's length; figures[kLongRows] = how many rows are longer
// than long_row_entries, figures[kLongRowEntriesInAll] = how many entries they hold together;
// figures[kVectorWarpSteps] = the steps of `step_entries` entries a row that the warps of a Vector
// launch with `vector_lanes` lanes a row would take, each warp as many as its longest row needs
// (rows r of a warp: those with the same r / (32 / vector_lanes)).
template <class Offset>
__global__ void row_lengths_kernel(const Offset* row_map, std::int64_t num_rows,
                                   std::int64_t long_row_entries, int vector_lanes,
                                   std::int64_t step_entries, unsigned long long* figures) {
  unsigned long long longest = 0;
  unsigned long long long_rows = 0;
  unsigned long long long_row_total = 0;
  unsigned long long warp_steps = 0;
  const int rows_a_warp = 32 / vector_lanes;
  const std::int64_t stride = gridDim.x * static_cast<std::int64_t>(blockDim.x);
  // Every thread of the grid-stride loop runs the same trips (the shuffles need the whole warp);
  // a stride is a multiple of 32, so a Vector warp's rows sit in aligned groups of threads.
  const std::int64_t first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  for (std::int64_t base = first - threadIdx.x % 32; base < num_rows; base += stride) {
    const std::int64_t row = base + threadIdx.x % 32;
    const auto length = row < num_rows ? static_cast<std::int64_t>(row_map[row + 1] - row_map[row])
                                       : std::int64_t{0};
    longest = max(longest, static_cast<unsigned long long>(length));
    if (length > long_row_entries) {
      ++long_rows;
      long_row_total += static_cast<unsigned long long>(length);
    }
    auto steps = static_cast<unsigned long long>((length + step_entries - 1) / step_entries);
    for (int offset = 1; offset < rows_a_warp; offset *= 2) {
      steps = max(steps, __shfl_xor_sync(0xffffffffu, steps, offset));
    }
    if (threadIdx.x % rows_a_warp == 0) warp_steps += steps;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    longest = max(longest, __shfl_down_sync(0xffffffffu, longest, offset));
    long_rows += __shfl_down_sync(0xffffffffu, long_rows, offset);
    long_row_total += __shfl_down_sync(0xffffffffu, long_row_total, offset);
    warp_steps += __shfl_down_sync(0xffffffffu, warp_steps, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicMax(figures + kLongestRow, longest);
    if (long_rows != 0) {
      atomicAdd(figures + kLongRows, long_rows);
      atomicAdd(figures + kLongRowEntriesInAll, long_row_total);
    }
    if (warp_steps != 0) atomicAdd(figures + kVectorWarpSteps, warp_steps);
  }
}

// Column reach: an entry (row, column) reaches |column - row * cols / rows| columns away from the
// diagonal. Histogram bucket b counts the sampled entries whose reach is below 2^b and at least
// 2^(b-1) (bucket 0: on the diagonal).
inline constexpr int kReachBuckets = 64;
inline constexpr std::int64_t kReachSampleRows = 4096;
inline constexpr int kReachSampleEntriesPerRow = 256;

// A warp per sampled row: rows 0, row_step, 2 * row_step, ... The sampled entries are kept inside
// [0, num_entries) whatever the row map says: the structure check runs beside this kernel, so the
// row map may be malformed here.
template <class Offset, class Ordinal>
__global__ void column_reach_kernel(const Offset* row_map, const Ordinal* entries,
                                    std::int64_t num_rows, std::int64_t num_cols,
                                    std::int64_t num_entries, std::int64_t row_step,
                                    unsigned long long* histogram) {
  __shared__ unsigned block_histogram[kReachBuckets];
  for (int b = threadIdx.x; b < kReachBuckets; b += blockDim.x) block_histogram[b] = 0;
  __syncthreads();
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t row = warp * row_step;
  if (row < num_rows) {
    const auto row_begin = static_cast<std::int64_t>(row_map[row]);
    const auto row_end = static_cast<std::int64_t>(row_map[row + 1]);
    // Both clamped to [0, num_entries], begin to at most end, so that begin + lane cannot
    // overflow from an offset near the type's limit.
    const std::int64_t end = row_end < 0 ? 0 : (row_end > num_entries ? num_entries : row_end);
    const std::int64_t begin = row_begin < 0 ? 0 : (row_begin > end ? end : row_begin);
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
