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

// A warp a slice of kScatterWarpEntries consecutive entries, whose rows lie between its first
// entry's and the next slice's first entry's (slice_rows); each lane's row found within them, no
// earlier than its previous entry's. y(column) += op(value) * alpha * x(row); y holds beta * y
// already.
template <class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kScatterThreads)
    transposed_scatter_kernel(const Offset* row_map, const Ordinal* entries, const V* values,
                              const Ordinal* slice_rows, Offset num_entries, bool conjugate,
                              T alpha, const T* x, std::int64_t x_stride, T* y,
                              std::int64_t y_stride) {
  const std::int64_t slice =
      (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  if (slice * kScatterWarpEntries >= static_cast<std::int64_t>(num_entries)) return;
  const auto first = static_cast<Offset>(slice * kScatterWarpEntries);
  const std::int64_t remaining = static_cast<std::int64_t>(num_entries - first);
  const int slice_entries =
      remaining < kScatterWarpEntries ? static_cast<int>(remaining) : kScatterWarpEntries;
  Ordinal row = slice_rows[slice];
  const Ordinal last_row = slice_rows[slice + 1];
  for (int i = static_cast<int>(threadIdx.x % 32); i < slice_entries; i += 32) {
    const Offset k = first + static_cast<Offset>(i);
    row = row_of_entry(row_map, k, row, last_row);
    const T value = conjugate_if(widen<T>(load_streaming(values + k)), conjugate);
    const T product = value * (alpha * load_readonly(x + row * x_stride));
    atomic_add(y + static_cast<std::int64_t>(entries[k]) * y_stride, product);
  }
}

}  // namespace kspmv::cuda::detail
