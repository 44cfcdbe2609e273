#pragma once
// op(A) x by scattering: each entry's product added into y at its column with an atomic add, A
// read in its own order (as cuSPARSE's transposed SpMV does). The order of each y entry's
// additions depends on the scheduling, so its last bits vary from run to run: only where the
// caller turned determinism off (PlanOptions::deterministic).

#include <cstdint>
#include <type_traits>

#include "device/device_scalar.cuh"

namespace kspmv::cuda::detail {

constexpr int kScatterThreads = 256;
// Entries a warp: equal shares of A whatever its rows' lengths (a row of millions spread over many
// warps, as a grid of short rows is).
constexpr int kScatterEntriesPerLane = 8;
constexpr int kScatterWarpEntries = 32 * kScatterEntriesPerLane;

// `*target += value` atomically, a complex value part by part.
template <class T>
__device__ inline void atomic_add(T* target, T value) {
  if constexpr (std::is_arithmetic_v<T>) {
    atomicAdd(target, value);
  } else {
    atomicAdd(&target->re, value.re);
    atomicAdd(&target->im, value.im);
  }
}

// The row holding entry k: the last of rows [low, high] starting at or before k (an empty row
// shares its start with the next, which is then the later one).
template <class Ordinal, class Offset>
__device__ inline Ordinal row_of_entry(const Offset* row_map, Offset k, Ordinal low, Ordinal high) {
  while (low < high) {
    const Ordinal middle = low + (high - low + 1) / 2;
    if (row_map[middle] <= k) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

// slice_rows[s]: the row of entry s * kScatterWarpEntries, for s in [0, num_slices); and
// slice_rows[num_slices] = num_rows - 1. A thread a slice, searching the whole row map once, so
// that the scatter searches only the few rows of its slice.
template <class Ordinal, class Offset>
__global__ void slice_rows_kernel(const Offset* row_map, Ordinal num_rows, std::int64_t num_slices,
                                  Ordinal* slice_rows) {
  const std::int64_t slice = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (slice > num_slices) return;
  slice_rows[slice] = slice == num_slices
                          ? num_rows - 1
                          : row_of_entry(row_map, static_cast<Offset>(slice * kScatterWarpEntries),
                                         Ordinal{0}, num_rows - 1);
}

// The rows of a slice, read once for it (coalesced) into shared memory: where each ends, and
// alpha * x there. Each entry then finds its row by a binary search there and its x beside it.
// A slice spans at most as many rows as it has entries, but for empty ones; past that, each entry
// searches the row map between the slice's rows instead. L2 bounds the scatter on 2M rows of 16
// random columns (94% of its peak, Nsight Compute), and every request for the row map or x is
// one fewer for the adds (DR-62).
constexpr int kScatterSliceRows = kScatterWarpEntries;

template <class T, class Offset>
struct ScatterSliceRows {
  Offset ends[kScatterSliceRows];
  T scaled_x[kScatterSliceRows];
};

// A warp a slice of kScatterWarpEntries consecutive entries, whose rows lie between its first
// entry's and the next slice's first entry's (slice_rows). y(column) += op(value) * alpha * x(row);
// y holds beta * y already. Each lane loads its 8 entries' values and columns first and finds
// their rows while the loads are in flight, all 8 searches a step at a time; one entry after the
// other (a dependent search and a load from DRAM each), few dense rows waited on them at 70% of
// L2's peak (DR-62). A's values and columns are read evict-first, so that y, which every add
// reads and writes, keeps its place in L2.
template <class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kScatterThreads)
    transposed_scatter_kernel(const Offset* row_map, const Ordinal* entries, const V* values,
                              const Ordinal* slice_rows, Offset num_entries, bool conjugate,
                              T alpha, const T* x, std::int64_t x_stride, T* y,
                              std::int64_t y_stride) {
  constexpr int kEntries = kScatterEntriesPerLane;
  __shared__ ScatterSliceRows<T, Offset> block_rows[kScatterThreads / 32];
  const std::int64_t slice =
      (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  if (slice * kScatterWarpEntries >= static_cast<std::int64_t>(num_entries)) return;
  ScatterSliceRows<T, Offset>& rows = block_rows[threadIdx.x / 32];
  const int lane = static_cast<int>(threadIdx.x % 32);
  const auto first = static_cast<Offset>(slice * kScatterWarpEntries);
  const std::int64_t remaining = static_cast<std::int64_t>(num_entries - first);
  // The lane's entries: first + lane + 32 * j for j < count.
  const std::int64_t lane_entries = (remaining - lane + 31) / 32;
  const int count = lane_entries < kEntries ? static_cast<int>(lane_entries) : kEntries;
  V matrix_values[kEntries];
  Ordinal columns[kEntries];
#pragma unroll
  for (int j = 0; j < kEntries; ++j) {
    if (j < count) {
      const Offset k = first + static_cast<Offset>(lane + 32 * j);
      matrix_values[j] = load_streaming(values + k);
      columns[j] = load_streaming(entries + k);
    }
  }
  const Ordinal first_row = slice_rows[slice];
  const Ordinal last_row = slice_rows[slice + 1];
  const std::int64_t span = static_cast<std::int64_t>(last_row) - first_row + 1;
  T scaled_x[kEntries];
  if (span <= kScatterSliceRows) {  // the same in the whole warp
    for (int r = lane; r < span; r += 32) {
      const std::int64_t row = static_cast<std::int64_t>(first_row) + r;
      rows.ends[r] = row_map[row + 1];
      rows.scaled_x[r] = alpha * load_readonly(x + row * x_stride);
    }
    __syncwarp();
    // Entry k's row among the slice's: the number of them that end at or before it.
    int slice_row[kEntries] = {};
    for (int step = kScatterSliceRows / 2; step > 0; step /= 2) {
      if (step >= span) continue;
#pragma unroll
      for (int j = 0; j < kEntries; ++j) {
        const int probe = slice_row[j] + step - 1;
        const Offset k = first + static_cast<Offset>(lane + 32 * j);
        if (probe < span && rows.ends[probe] <= k) slice_row[j] += step;
      }
    }
#pragma unroll
    for (int j = 0; j < kEntries; ++j) scaled_x[j] = rows.scaled_x[slice_row[j]];
  } else {
    Ordinal row = first_row;
#pragma unroll
    for (int j = 0; j < kEntries; ++j) {
      if (j < count) {
        row = row_of_entry(row_map, first + static_cast<Offset>(lane + 32 * j), row, last_row);
        scaled_x[j] = alpha * load_readonly(x + row * x_stride);
      }
    }
  }
#pragma unroll
  for (int j = 0; j < kEntries; ++j) {
    if (j < count) {
      atomic_add(y + static_cast<std::int64_t>(columns[j]) * y_stride,
                 conjugate_if(widen<T>(matrix_values[j]), conjugate) * scaled_x[j]);
    }
  }
}

}  // namespace kspmv::cuda::detail
