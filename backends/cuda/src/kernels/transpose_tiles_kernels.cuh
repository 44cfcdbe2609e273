#pragma once
// The two kernels of a transposed call through transpose tiles (formats/transpose_tiles.hpp): each
// run's partial, then each column's sum of its partials into y. Every sum has one fixed order (a
// run's entries in A's order by one thread; a column's partials strided over its lanes, then a
// fixed tree), so y is the same on every run.

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "device/device_scalar.cuh"

namespace kspmv::cuda::detail {

constexpr int kTransposeTileThreads = 256;

// The scan operator of the rows (cub's own functors are not in every CCCL release).
struct LargerRow {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// The entries of a tile: kTile of them from its start, fewer at A's end.
struct TileExtent {
  std::int64_t start;
  int length;
};
template <int kTile>
__device__ inline TileExtent tile_extent(std::int64_t tile, std::int64_t num_entries) {
  const std::int64_t start = tile * kTile;
  return {start, static_cast<int>(num_entries - start < kTile ? num_entries - start : kTile)};
}

// T: the vectors' device type; V: the matrix values' (T or its single precision counterpart).
template <class T, class V, class Ordinal, class Offset>
struct TilePartialsArguments {
  const Offset* row_map;
  const V* values;
  std::int64_t num_entries;
  const T* x;  // one vector
  std::int64_t x_stride;
  bool conjugate;
  const std::uint16_t* order;
  const std::uint16_t* run_ends;
  const Offset* tile_runs;
  const Ordinal* tile_first_row;
  const Offset* run_slot;
  T* partials;
};

// One block a tile: each entry's row (a max-scan over the starts of the rows inside the tile), its
// product with x in shared memory (values and x read in order, once), then a thread a run.
template <int kTile, class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTransposeTileThreads)
    tile_partials_kernel(TilePartialsArguments<T, V, Ordinal, Offset> a) {
  constexpr int kItems = kTile / kTransposeTileThreads;
  using Scan = cub::BlockScan<int, kTransposeTileThreads>;
  __shared__ int row_in_tile[kTile];  // each entry's row less the tile's first row
  __shared__ T products[kTile];
  __shared__ std::uint16_t order[kTile];
  __shared__ typename Scan::TempStorage scan;
  const std::int64_t tile = blockIdx.x;
  const auto [start, length] = tile_extent<kTile>(tile, a.num_entries);
  const auto first_row = static_cast<std::int64_t>(a.tile_first_row[tile]);
  const auto last_row = static_cast<std::int64_t>(a.tile_first_row[tile + 1]);
  for (int p = threadIdx.x; p < kTile; p += kTransposeTileThreads) row_in_tile[p] = 0;
  __syncthreads();
  // Every later row starts after the tile's first entry; an empty one shares its start with the
  // next, and the max keeps the row that holds the entry.
  for (std::int64_t row = first_row + 1 + threadIdx.x; row <= last_row;
       row += kTransposeTileThreads) {
    const std::int64_t row_start = static_cast<std::int64_t>(a.row_map[row]) - start;
    if (row_start < length) atomicMax(&row_in_tile[row_start], static_cast<int>(row - first_row));
  }
  __syncthreads();
  int rows[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) rows[i] = row_in_tile[threadIdx.x * kItems + i];
  Scan(scan).InclusiveScan(rows, rows, LargerRow());
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) row_in_tile[threadIdx.x * kItems + i] = rows[i];
  __syncthreads();
  for (int p = threadIdx.x; p < length; p += kTransposeTileThreads) {
    const T value = conjugate_if(widen<T>(load_streaming(a.values + start + p)), a.conjugate);
    products[p] = value * load_readonly(a.x + (first_row + row_in_tile[p]) * a.x_stride);
    order[p] = a.order[start + p];
  }
  __syncthreads();
  const auto first_run = static_cast<std::int64_t>(a.tile_runs[tile]);
  const auto end_run = static_cast<std::int64_t>(a.tile_runs[tile + 1]);
  for (std::int64_t run = first_run + threadIdx.x; run < end_run; run += kTransposeTileThreads) {
    const int begin = run == first_run ? 0 : a.run_ends[run - 1];
    const int end = a.run_ends[run];
    T sum = products[order[begin]];
    for (int k = begin + 1; k < end; ++k) sum += products[order[k]];
    a.partials[a.run_slot[run]] = sum;
  }
}

// y(j) = alpha * (column j's partials summed) + beta * y(j): kLanes threads a column (1, a warp,
// or the whole block), each summing every kLanes-th partial, then a fixed tree.
template <int kLanes, class T, class Offset>
__global__ void __launch_bounds__(kTransposeTileThreads)
    column_sums_kernel(const Offset* column_slots, const T* partials, std::int64_t num_cols,
                       T alpha, T beta, bool beta_is_zero, T* y, std::int64_t y_stride) {
  static_assert(kLanes == 1 || kLanes == 32 || kLanes == kTransposeTileThreads);
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t column = thread / kLanes;
  const int lane = static_cast<int>(thread % kLanes);
  T sum{};
  if (column < num_cols) {
    const auto end = static_cast<std::int64_t>(column_slots[column + 1]);
    for (auto s = static_cast<std::int64_t>(column_slots[column]) + lane; s < end; s += kLanes) {
      sum += load_streaming(partials + s);
    }
  }
  if constexpr (kLanes == 32) {
    sum = group_sum(sum, 32);
  } else if constexpr (kLanes == kTransposeTileThreads) {
    __shared__ T lanes[kTransposeTileThreads];
    lanes[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kTransposeTileThreads / 2; half > 0; half /= 2) {
      if (lane < half) lanes[lane] += lanes[lane + half];
      __syncthreads();
    }
    sum = lanes[0];
  }
  if (column >= num_cols || lane != 0) return;
  T* target = y + column * y_stride;
  store_streaming(target, beta_is_zero ? alpha * sum : alpha * sum + beta * *target);
}

}  // namespace kspmv::cuda::detail
