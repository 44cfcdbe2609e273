#pragma once
// Scalar: one thread per row (Bell & Garland's baseline). Uncoalesced, but the fewest instructions
// when rows hold one or two entries.

#include <cstdint>

#include "kernels/spmv_arguments.cuh"

namespace kspmv::cuda::detail {

template <class Args>
__global__ void scalar_spmv_kernel(Args args) {
  using T = typename Args::value_type;
  const std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (row >= args.num_rows) return;
  const std::int64_t begin = args.row_begin(row);
  const std::int64_t end = args.row_begin(row + 1);
  T sum{};
  const auto columns = args.row_columns(row, begin);
  if (columns.compressed) {
    for (std::int64_t entry = begin; entry < end; ++entry) {
      sum += args.times_x(args.value(entry), args.compressed_column(entry, row, columns.base));
    }
  } else {
    for (std::int64_t entry = begin; entry < end; ++entry) {
      sum += args.product(entry);
    }
  }
  args.store(row, sum);
}

}  // namespace kspmv::cuda::detail
