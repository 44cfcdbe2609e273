#pragma once
// The two kernels of a transposed call through transpose tiles (formats/transpose_tiles.hpp): each
// run's partial, then each column's sum of its partials into y. Every sum has one fixed order (a
// run's entries in A's order by one thread; a column's partials strided over its lanes, then a
// fixed tree), so y is the same on every run.

#include <cstdint>

#include "device/device_scalar.cuh"
#include "kernels/tile_rows.cuh"

namespace kspmv::cuda::detail {

template <class T, class V, class Ordinal, class Offset>
struct TilePartialsArguments : TileReadArguments<T, V, Ordinal, Offset> {
  const std::uint16_t* order;
  const std::uint16_t* run_ends;
  const Offset* tile_runs;
  const Offset* run_slot;
  T* partials;
};

// One block a tile: each entry's row (a max-scan over the starts of the rows inside the tile), its
// product with x in shared memory (values and x read in order, once), then a thread a run.
template <int kTile, class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    tile_partials_kernel(TilePartialsArguments<T, V, Ordinal, Offset> a) {
  __shared__ typename TileRows<kTile>::TempStorage rows;
  __shared__ T products[kTile];
  __shared__ std::uint16_t order[kTile];
  const std::int64_t tile = blockIdx.x;
  const TileExtent extent = tile_extent<kTile>(tile, a.num_entries);
  const auto [start, length] = extent;
  const auto first_row = static_cast<std::int64_t>(a.tile_first_row[tile]);
  find_tile_rows<kTile>(a.row_map, extent, first_row,
                        static_cast<std::int64_t>(a.tile_first_row[tile + 1]), rows);
  for (int p = threadIdx.x; p < length; p += kTileThreads) {
    const T value = conjugate_if(widen<T>(load_streaming(a.values + start + p)), a.conjugate);
    products[p] = value * load_readonly(a.x + (first_row + rows.row_in_tile[p]) * a.x_stride);
    order[p] = a.order[start + p];
  }
  __syncthreads();
  const auto first_run = static_cast<std::int64_t>(a.tile_runs[tile]);
  const auto end_run = static_cast<std::int64_t>(a.tile_runs[tile + 1]);
  for (std::int64_t run = first_run + threadIdx.x; run < end_run; run += kTileThreads) {
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
__global__ void __launch_bounds__(kTileThreads)
    column_sums_kernel(const Offset* column_slots, const T* partials, std::int64_t num_cols,
                       T alpha, T beta, bool beta_is_zero, T* y, std::int64_t y_stride) {
  static_assert(kLanes == 1 || kLanes == 32 || kLanes == kTileThreads);
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
  } else if constexpr (kLanes == kTileThreads) {
    __shared__ T lanes[kTileThreads];
    lanes[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kTileThreads / 2; half > 0; half /= 2) {
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
