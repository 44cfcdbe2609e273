#pragma once
// Kernels around a radix sort, shared by the builds of A^T's structure, of the transpose tiles and
// of the transposed products: the positions to sort, where each went, and the start of each column.

#include <cstdint>

namespace kspmv::cuda::detail {

// The bits a radix sort of keys in [0, value) must look at.
inline int significant_bits(std::int64_t value) {
  int bits = 1;
  while (bits < 63 && (std::int64_t(1) << bits) <= value) ++bits;
  return bits;
}

template <class Index>
__global__ void iota_kernel(Index* out, std::int64_t length) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < length) out[i] = static_cast<Index>(i);
}

// rank[sorted[i]] = i: where each position went, from the positions in sorted order (the slots of
// the transpose tiles' runs and of the transposed products).
template <class Index>
__global__ void rank_of_position_kernel(const Index* sorted, std::int64_t length, Index* rank) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < length) rank[static_cast<std::int64_t>(sorted[i])] = static_cast<Index>(i);
}

// starts[c] = the first position whose sorted column is c or more: each position that starts a
// run of columns fills in the starts of the columns from the previous run's column on (so empty
// columns too), in one coalesced pass.
template <class Ordinal, class Offset>
__global__ void column_starts_kernel(const Ordinal* sorted_columns, std::int64_t length,
                                     std::int64_t num_cols, Offset* starts) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p > length) return;
  const std::int64_t previous = p == 0 ? -1 : static_cast<std::int64_t>(sorted_columns[p - 1]);
  const std::int64_t current =
      p == length ? num_cols : static_cast<std::int64_t>(sorted_columns[p]);
  for (std::int64_t column = previous + 1; column <= current; ++column) {
    starts[column] = static_cast<Offset>(p);
  }
}

}  // namespace kspmv::cuda::detail
