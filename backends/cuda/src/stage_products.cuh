#pragma once
// A block's share of the products a(e) * x(column(e)) staged in shared memory with coalesced loads.
// Each thread issues all its matrix loads, then all its x loads, before using any: memory-level
// parallelism is what a bandwidth-bound kernel lives on, and a plain strided loop would wait for
// each load in turn.

#include <cstdint>

#include "spmv_arguments.cuh"

namespace kspmv::cuda::detail {

// s_products[k] = product(begin + k) for k < count, Batch loads per thread in flight at a time.
template <int BlockThreads, int Batch, class T, class Ordinal, class Offset>
__device__ inline void stage_products(const SpmvArguments<T, Ordinal, Offset>& args,
                                      std::int64_t begin, int count, T* s_products) {
  for (int base = 0; base < count; base += BlockThreads * Batch) {
    Ordinal columns[Batch];
    T values[Batch];
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      const int k = base + static_cast<int>(threadIdx.x) + i * BlockThreads;
      if (k < count) {
        columns[i] = args.column(begin + k);
        values[i] = args.value(begin + k);
      }
    }
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      const int k = base + static_cast<int>(threadIdx.x) + i * BlockThreads;
      if (k < count) s_products[k] = args.times_x(values[i], columns[i]);
    }
  }
}

// s_row_ends[k] = end of row first_row + k, relative to `origin`, for k < count.
template <int BlockThreads, int ItemsPerThread, class T, class Ordinal, class Offset>
__device__ inline void stage_row_ends(const SpmvArguments<T, Ordinal, Offset>& args,
                                      std::int64_t first_row, std::int64_t origin, int count,
                                      int* s_row_ends) {
  std::int64_t ends[ItemsPerThread];
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int k = static_cast<int>(threadIdx.x) + i * BlockThreads;
    if (k < count) ends[i] = args.row_begin(first_row + k + 1);
  }
#pragma unroll
  for (int i = 0; i < ItemsPerThread; ++i) {
    const int k = static_cast<int>(threadIdx.x) + i * BlockThreads;
    if (k < count) s_row_ends[k] = static_cast<int>(ends[i] - origin);
  }
}

}  // namespace kspmv::cuda::detail
