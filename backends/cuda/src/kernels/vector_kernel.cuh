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

// This lane's share of row `row`'s products, its columns read from the plan's compressed copy
// (from `compressed_base`: SpmvArguments::row_columns) or from A's own array. ContiguousX: the
// caller checked x_stride == 1.
template <bool Compressed, bool ContiguousX, int Lanes, class Args>
__device__ inline typename Args::value_type vector_row_share(const Args& args, std::int64_t row,
                                                             std::int64_t begin, std::int64_t end,
                                                             int lane,
                                                             std::int64_t compressed_base = 0) {
  using Index = VectorEntryIndex<Args>;
  const auto row_end = static_cast<Index>(end);
  typename Args::value_type sum{};
  for (auto base = static_cast<Index>(begin + lane); base < row_end; base += Lanes * kVectorBatch) {
    typename Args::ordinal_type columns[kVectorBatch];
    typename Args::value_type values[kVectorBatch];
#pragma unroll
    for (int i = 0; i < kVectorBatch; ++i) {
      const Index entry = base + i * Lanes;
      if (entry < row_end) {
        if constexpr (Compressed) {
          columns[i] = args.compressed_column(entry, row, compressed_base);
        } else {
          columns[i] = args.column(entry);
        }
        values[i] = args.value(entry);
        if constexpr (Args::gathers_after_values) {
          columns[i] = args.column_after_value(columns[i], values[i]);
        }
      }
    }
    const auto loaded = [&](int i) { return base + i * Lanes < row_end; };
    gathers_after_batch(args, values, columns, loaded);
    typename Args::value_type xs[kVectorBatch];
#pragma unroll
    for (int i = 0; i < kVectorBatch; ++i) {
      if (loaded(i)) {
        xs[i] = args.template x_at<ContiguousX>(columns[i]);
        if constexpr (!Args::gathers_before_products) sum += args.times(values[i], xs[i]);
      }
    }
    if constexpr (Args::gathers_before_products) {
#pragma unroll
      for (int i = 0; i < kVectorBatch; ++i) {
        if (loaded(i)) sum += args.times(values[i], xs[i]);
      }
    }
  }
  return sum;
}

// One launch's rows, a group of Lanes a row: the body of both kernels below.
template <int Lanes, class Args>
__device__ inline void vector_spmv(const Args& args) {
  using T = typename Args::value_type;
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = thread / Lanes;
  const int lane = static_cast<int>(threadIdx.x % Lanes);
  T sum{};
  // Rows past the end still take part in the shuffles below, which need the whole warp.
  if (row < args.num_rows) {
    if (lane == 0) args.prefetch_y(row);
    const std::int64_t begin = args.row_begin(row);
    const std::int64_t end = args.row_begin(row + 1);
    const auto share = [&](auto contiguous_x) {
      constexpr bool kContiguousX = decltype(contiguous_x)::value;
      if constexpr (Args::compressed_columns) {
        const auto columns = args.row_columns(row, begin);
        if (columns.compressed) {
          return vector_row_share<true, kContiguousX, Lanes>(args, row, begin, end, lane,
                                                             columns.base);
        }
      }
      return vector_row_share<false, kContiguousX, Lanes>(args, row, begin, end, lane);
    };
    // x_stride is the same for the whole launch: a uniform branch.
    sum = args.x_stride == 1 ? share(std::true_type{}) : share(std::false_type{});
  }
  sum = group_sum(sum, Lanes);
  if (lane == 0 && row < args.num_rows) args.store(row, sum);
}

template <int Lanes, class Args>
__global__ void vector_spmv_kernel(Args args) {
  vector_spmv<Lanes>(args);
}

// The row patterns' Vector kernel runs bounded to the deltas kernel's occupancy
// (BoundedVectorShape, launch_shapes.hpp); complex sums keep the unbounded kernel.
template <class Args>
constexpr bool runs_bounded_vector_kernel() {
  return Args::columns_type::kBoundedVectorKernel &&
         std::is_arithmetic_v<typename Args::value_type>;
}

template <int Lanes, class Args>
__global__ void __launch_bounds__(BoundedVectorShape::kBlockThreads,
                                  BoundedVectorShape::blocks_per_sm<typename Args::value_type>())
    bounded_vector_spmv_kernel(Args args) {
  vector_spmv<Lanes>(args);
}

}  // namespace kspmv::cuda::detail
