#pragma once
// A block's rows staged in shared memory with coalesced loads: the products a(e) * x(column(e)) of
// its entries and the offsets where its rows begin. Each thread issues all the matrix and row-map
// loads of a round before it waits for any, then all its x loads: memory-level parallelism is what
// a bandwidth-bound kernel lives on, and a plain strided loop would wait for each load in turn.

#include <cstdint>
#include <type_traits>

#include "kernels/spmv_arguments.cuh"

namespace kspmv::cuda::detail {

// s_products[k] = product(begin + k) for k < count, and s_row_offsets[r] = offset where row
// first_row + r begins, relative to `begin`, for r < offsets. A round loads Batch entries and
// RowBatch offsets per thread; most blocks need one round. RowBatch 0 stages products only.
template <int BlockThreads, int Batch, int RowBatch, class Args>
__device__ inline void stage_rows(const Args& args, std::int64_t first_row, int offsets,
                                  std::int64_t begin, int count, int* s_row_offsets,
                                  typename Args::value_type* s_products) {
  for (int base = 0, row_base = 0; base < count || (RowBatch > 0 && row_base < offsets);
       base += BlockThreads * Batch, row_base += BlockThreads * RowBatch) {
    typename Args::ordinal_type columns[Batch];
    typename Args::value_type values[Batch];
    std::int64_t row_offsets[RowBatch > 0 ? RowBatch : 1];
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      const int k = base + static_cast<int>(threadIdx.x) + i * BlockThreads;
      if (k < count) {
        columns[i] = args.column(begin + k);
        values[i] = args.value(begin + k);
        if constexpr (Args::gathers_after_values) {
          columns[i] = args.column_after_value(columns[i], values[i]);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < RowBatch; ++i) {
      const int r = row_base + static_cast<int>(threadIdx.x) + i * BlockThreads;
      if (r < offsets) row_offsets[i] = args.row_begin(first_row + r);
    }
    // x's rows one apart (every rank-1 call on a contiguous x) decided once a round, uniformly.
    const auto stage_products = [&](auto contiguous_x) {
#pragma unroll
      for (int i = 0; i < Batch; ++i) {
        const int k = base + static_cast<int>(threadIdx.x) + i * BlockThreads;
        if (k < count) {
          s_products[k] =
              args.template times_x<decltype(contiguous_x)::value>(values[i], columns[i]);
        }
      }
    };
    if (args.x_stride == 1) {
      stage_products(std::true_type{});
    } else {
      stage_products(std::false_type{});
    }
#pragma unroll
    for (int i = 0; i < RowBatch; ++i) {
      const int r = row_base + static_cast<int>(threadIdx.x) + i * BlockThreads;
      if (r < offsets) s_row_offsets[r] = static_cast<int>(row_offsets[i] - begin);
    }
  }
}

}  // namespace kspmv::cuda::detail
