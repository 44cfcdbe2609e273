#pragma once
// Scalar: one thread per row (Bell & Garland's baseline). Uncoalesced, but the fewest instructions
// when rows hold one or two entries.

#include <cstdint>

#include "spmv_arguments.cuh"

namespace kspmv::cuda::detail {

template <class Args>
__global__ void scalar_spmv_kernel(Args args) {
  using T = typename Args::value_type;
  const std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (row >= args.num_rows) return;
  const std::int64_t end = args.row_begin(row + 1);
  T sum{};
  if (args.reads_deltas(row)) {
    for (std::int64_t entry = args.row_begin(row); entry < end; ++entry) {
      sum += args.times_x(args.value(entry), args.delta_column(entry, row));
    }
  } else {
    for (std::int64_t entry = args.row_begin(row); entry < end; ++entry) {
      sum += args.product(entry);
    }
  }
  args.store(row, sum);
}

}  // namespace kspmv::cuda::detail
