#pragma once
// Sets *malformed where a row's offsets or an entry's column break the CSR invariants
// (kspmv/detail/csr_invariants.hpp). Index i stands for row i and entry i, so one pass reads
// row_map and entries once, coalesced; nothing is read outside the arrays' stated sizes.

#include <cstdint>

#include "kspmv/detail/csr_invariants.hpp"

namespace kspmv::cuda::detail {

// Indices a thread takes per step, a grid apart: their loads are independent and all in flight
// before the first comparison (one index a step left a 109M-entry pass at a third of the copy
// bandwidth on an H200).
constexpr int kCsrInvariantsIndicesPerStep = 4;

template <class Ordinal, class Offset>
__global__ void csr_invariants_kernel(const Offset* row_map, const Ordinal* entries,
                                      std::int64_t num_rows, std::int64_t num_cols,
                                      std::int64_t num_entries, int* malformed) {
  const std::int64_t count = num_rows > num_entries ? num_rows : num_entries;
  const std::int64_t grid = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       first < count; first += grid * kCsrInvariantsIndicesPerStep) {
    bool breaks = false;
#pragma unroll
    for (int k = 0; k < kCsrInvariantsIndicesPerStep; ++k) {
      const std::int64_t i = first + k * grid;
      breaks |= i < num_rows && kspmv::detail::row_offsets_break(i, row_map[i], row_map[i + 1],
                                                                 num_rows, num_entries);
      breaks |= i < num_entries && kspmv::detail::column_out_of_range(entries[i], num_cols);
    }
    if (breaks) *malformed = 1;
  }
}

}  // namespace kspmv::cuda::detail
