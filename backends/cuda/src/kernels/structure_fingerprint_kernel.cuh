#pragma once
// Adds the fingerprint of A's structure (device/structure_fingerprint.hpp) to *sum: each thread
// sums its share of the terms, each warp adds its total with one atomic. Reads row_map and entries
// once, coalesced, nothing outside their stated sizes.

#include <cstdint>

#include "device/structure_fingerprint.hpp"

namespace kspmv::cuda::detail {

template <class Ordinal, class Offset>
__global__ void structure_fingerprint_kernel(const Offset* row_map, const Ordinal* entries,
                                             std::int64_t num_rows, std::int64_t num_entries,
                                             unsigned long long* sum) {
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::uint64_t own = 0;
  for (std::int64_t i = thread; i <= num_rows; i += threads) {
    own += fingerprint_term(static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(row_map[i]));
  }
  const auto first_column = static_cast<std::uint64_t>(num_rows + 1);
  for (std::int64_t e = thread; e < num_entries; e += threads) {
    own += fingerprint_term(first_column + static_cast<std::uint64_t>(e),
                            static_cast<std::uint64_t>(__ldg(entries + e)));
  }
  for (int offset = 16; offset > 0; offset /= 2) own += __shfl_down_sync(0xffffffffu, own, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, static_cast<unsigned long long>(own));
}

}  // namespace kspmv::cuda::detail
