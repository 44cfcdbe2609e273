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
template <class Offset>
__device__ inline std::int64_t row_of_entry(const Offset* row_map, std::int64_t k, std::int64_t low,
                                            std::int64_t high) {
  while (low < high) {
    const std::int64_t middle = low + (high - low + 1) / 2;
    if (static_cast<std::int64_t>(row_map[middle]) <= k) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

// A warp a slice of kScatterWarpEntries consecutive entries: the rows of its first and last entry
// once, then each lane's entry's row within them; y(column) += op(value) * alpha * x(row). y holds
// beta * y already.
template <class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kScatterThreads)
    transposed_scatter_kernel(const Offset* row_map, const Ordinal* entries, const V* values,
                              std::int64_t num_rows, std::int64_t num_entries, bool conjugate,
                              T alpha, const T* x, std::int64_t x_stride, T* y,
                              std::int64_t y_stride) {
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t first = warp * kScatterWarpEntries;
  if (first >= num_entries) return;
  const std::int64_t last =
      (num_entries - first < kScatterWarpEntries ? num_entries : first + kScatterWarpEntries) - 1;
  const std::int64_t first_row = row_of_entry(row_map, first, 0, num_rows - 1);
  const std::int64_t last_row = row_of_entry(row_map, last, first_row, num_rows - 1);
  for (std::int64_t k = first + lane; k <= last; k += 32) {
    const std::int64_t row = row_of_entry(row_map, k, first_row, last_row);
    const T value = conjugate_if(widen<T>(load_streaming(values + k)), conjugate);
    const T product = value * (alpha * load_readonly(x + row * x_stride));
    atomic_add(y + static_cast<std::int64_t>(entries[k]) * y_stride, product);
  }
}

}  // namespace kspmv::cuda::detail
