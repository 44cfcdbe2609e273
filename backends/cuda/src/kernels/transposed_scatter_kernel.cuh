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

// kLanes consecutive threads a row, each adding every kLanes-th entry of it: y(column) +=
// op(value) * (alpha * x(row)). y holds beta * y already.
template <int kLanes, class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kScatterThreads)
    transposed_scatter_kernel(const Offset* row_map, const Ordinal* entries, const V* values,
                              std::int64_t num_rows, bool conjugate, T alpha, const T* x,
                              std::int64_t x_stride, T* y, std::int64_t y_stride) {
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = thread / kLanes;
  if (row >= num_rows) return;
  const T scaled_x = alpha * load_readonly(x + row * x_stride);
  const auto end = static_cast<std::int64_t>(row_map[row + 1]);
  for (auto k = static_cast<std::int64_t>(row_map[row]) + thread % kLanes; k < end; k += kLanes) {
    const T value = conjugate_if(widen<T>(load_streaming(values + k)), conjugate);
    atomic_add(y + static_cast<std::int64_t>(entries[k]) * y_stride, value * scaled_x);
  }
}

}  // namespace kspmv::cuda::detail
