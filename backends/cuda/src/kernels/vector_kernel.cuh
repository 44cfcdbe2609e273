#pragma once
// Vector: a group of Lanes threads (2..32, a sub-warp) per row; the group strides over the row and
// reduces with shuffles in a fixed order. Each lane loads kVectorBatch entries of its stride before
// it waits for any, so a group of batched_vector_lanes_for(mean) lanes has a mean row's loads in
// flight at once; the sum still takes the lane's entries in order, as an unbatched loop would.
// (A latency-bound matrix keeps CUSP's lanes: see choice.cpp.)

#include <cstdint>
#include <type_traits>

#include "kernels/launch_shapes.hpp"
#include "kernels/spmv_arguments.cuh"

namespace kspmv::cuda::detail {

// Entry indices as wide as the offsets need: 32-bit offsets give 32-bit bounds and addresses.
// Unsigned, so that a stride past the row's end near 2^31 entries cannot overflow. On sm_90 the
// 64-bit forms cost 4 instructions an entry, and made ptxas peel the loop's first trip, so that a
// warp whose rows take one and two trips issued both copies (DR-40).
template <class Args>
using VectorEntryIndex =
    std::conditional_t<sizeof(typename Args::offset_type) <= 4, std::uint32_t, std::int64_t>;

// A row a group takes: its entries [begin, end), and where its columns are read from (the plan's
// compressed copy from `compressed_base`, SpmvArguments::row_columns, or A's own array).
template <class Args>
struct VectorRow {
  std::int64_t row = 0;
  VectorEntryIndex<Args> begin = 0;
  VectorEntryIndex<Args> end = 0;
  bool compressed = false;
  std::int64_t compressed_base = 0;
};

// This lane's share of each of `Rows` rows' products. Every row's loads of a batch are issued
// before any of its products, so that a group keeps Rows times a row's bytes in flight; each row's
// sum takes the lane's entries in the order an unbatched loop over that row alone would.
// ContiguousX: the caller checked x_stride == 1.
template <bool ContiguousX, int Lanes, int Rows, class Args>
__device__ inline void vector_rows_share(const Args& args, const VectorRow<Args> (&rows)[Rows],
                                         int lane, typename Args::value_type (&sums)[Rows]) {
  using Index = VectorEntryIndex<Args>;
  Index longest = 0;
#pragma unroll
  for (int r = 0; r < Rows; ++r) longest = max(longest, rows[r].end - rows[r].begin);
  for (auto step = static_cast<Index>(lane); step < longest; step += Lanes * kVectorBatch) {
    typename Args::ordinal_type columns[Rows][kVectorBatch];
    typename Args::value_type values[Rows][kVectorBatch];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
#pragma unroll
      for (int i = 0; i < kVectorBatch; ++i) {
        const Index entry = rows[r].begin + step + i * Lanes;
        if (entry < rows[r].end) {
          if constexpr (Args::compressed_columns) {
            columns[r][i] = rows[r].compressed ? args.compressed_column(entry, rows[r].row,
                                                                        rows[r].compressed_base)
                                               : args.column(entry);
          } else {
            columns[r][i] = args.column(entry);
          }
          values[r][i] = args.value(entry);
          if constexpr (Args::gathers_after_values) {
            columns[r][i] = args.column_after_value(columns[r][i], values[r][i]);
          }
        }
      }
    }
    typename Args::value_type xs[Rows][kVectorBatch];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      const auto loaded = [&](int i) { return rows[r].begin + step + i * Lanes < rows[r].end; };
      gathers_after_batch(args, values[r], columns[r], loaded);
#pragma unroll
      for (int i = 0; i < kVectorBatch; ++i) {
        if (loaded(i)) {
          xs[r][i] = args.template x_at<ContiguousX>(columns[r][i]);
          if constexpr (!Args::gathers_before_products)
            sums[r] += args.times(values[r][i], xs[r][i]);
        }
      }
    }
    if constexpr (Args::gathers_before_products) {
#pragma unroll
      for (int r = 0; r < Rows; ++r) {
#pragma unroll
        for (int i = 0; i < kVectorBatch; ++i) {
          if (rows[r].begin + step + i * Lanes < rows[r].end) {
            sums[r] += args.times(values[r][i], xs[r][i]);
          }
        }
      }
    }
  }
}

// One launch's rows, a group of Lanes lanes taking Rows consecutive rows: the body of both kernels
// below.
template <int Lanes, int Rows, class Args>
__device__ inline void vector_spmv(const Args& args) {
  using T = typename Args::value_type;
  using Index = VectorEntryIndex<Args>;
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t first_row = thread / Lanes * Rows;
  const int lane = static_cast<int>(threadIdx.x % Lanes);
  VectorRow<Args> rows[Rows];
  T sums[Rows];
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    sums[r] = T{};
    const std::int64_t row = first_row + r;
    rows[r].row = row;
    // Rows past the end read nothing but still take part in the shuffles below.
    if (row < args.num_rows) {
      if (lane == 0) args.prefetch_y(row);
      const std::int64_t begin = args.row_begin(row);
      rows[r].begin = static_cast<Index>(begin);
      rows[r].end = static_cast<Index>(args.row_begin(row + 1));
      if constexpr (Args::compressed_columns) {
        const auto columns = args.row_columns(row, begin);
        rows[r].compressed = columns.compressed;
        rows[r].compressed_base = columns.base;
      }
    }
  }
  // x_stride is the same for the whole launch: a uniform branch.
  if (args.x_stride == 1) {
    vector_rows_share<true, Lanes, Rows>(args, rows, lane, sums);
  } else {
    vector_rows_share<false, Lanes, Rows>(args, rows, lane, sums);
  }
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    sums[r] = group_sum(sums[r], Lanes);
    if (lane == 0 && rows[r].row < args.num_rows) args.store(rows[r].row, sums[r]);
  }
}

template <int Lanes, int Rows, class Args>
__global__ void vector_spmv_kernel(Args args) {
  vector_spmv<Lanes, Rows>(args);
}

// The row patterns' Vector kernel runs bounded to the deltas kernel's occupancy
// (BoundedVectorShape, launch_shapes.hpp); complex sums keep the unbounded kernel.
template <class Args>
constexpr bool runs_bounded_vector_kernel() {
  return Args::columns_type::kBoundedVectorKernel &&
         std::is_arithmetic_v<typename Args::value_type>;
}

template <int Lanes, int Rows, class Args>
__global__ void __launch_bounds__(BoundedVectorShape::kBlockThreads,
                                  BoundedVectorShape::blocks_per_sm<typename Args::value_type>())
    bounded_vector_spmv_kernel(Args args) {
  vector_spmv<Lanes, Rows>(args);
}

}  // namespace kspmv::cuda::detail
