#pragma once
// Sets *malformed where a row's offsets or an entry's column break the CSR invariants
// (kspmv/detail/csr_invariants.hpp). One pass reads row_map and entries once, coalesced, and
// nothing outside the arrays' stated sizes.
//
// The columns are read 16 bytes a load: with one column a load and 64-bit comparisons the pass was
// bound by instruction issue, not memory, and read far below DRAM bandwidth (Nsight Compute on a
// 109M-entry stencil; DR-27).

#include <cstdint>
#include <cstring>

#include "kspmv/detail/csr_invariants.hpp"

namespace kspmv::cuda::detail {

using CsrInvariantsLoad = uint4;

template <class Ordinal>
constexpr int kColumnsPerCsrInvariantsLoad = sizeof(CsrInvariantsLoad) / sizeof(Ordinal);

template <class Ordinal, class Offset>
__global__ void csr_invariants_kernel(const Offset* row_map, const Ordinal* entries,
                                      std::int64_t num_rows, Ordinal num_cols,
                                      std::int64_t num_entries, unsigned long long* malformed) {
  using kspmv::detail::column_out_of_range;
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  bool breaks = false;
  for (std::int64_t i = thread; i < num_rows; i += threads) {
    breaks |=
        kspmv::detail::row_offsets_break(i, row_map[i], row_map[i + 1], num_rows, num_entries);
  }
  // The aligned middle of entries a load at a time, its two ends (each shorter than a load) one
  // column at a time.
  constexpr int kPerLoad = kColumnsPerCsrInvariantsLoad<Ordinal>;
  constexpr auto kLoadBytes = sizeof(CsrInvariantsLoad);
  const auto misaligned = reinterpret_cast<std::uintptr_t>(entries) % kLoadBytes;
  const std::int64_t to_alignment =
      misaligned == 0 ? 0 : static_cast<std::int64_t>((kLoadBytes - misaligned) / sizeof(Ordinal));
  const std::int64_t head = to_alignment < num_entries ? to_alignment : num_entries;
  const std::int64_t loads = (num_entries - head) / kPerLoad;
  const auto* middle = reinterpret_cast<const CsrInvariantsLoad*>(entries + head);
  for (std::int64_t l = thread; l < loads; l += threads) {
    const CsrInvariantsLoad packed = middle[l];
    Ordinal columns[kPerLoad];
    std::memcpy(columns, &packed, sizeof(packed));
#pragma unroll
    for (int k = 0; k < kPerLoad; ++k) breaks |= column_out_of_range(columns[k], num_cols);
  }
  for (std::int64_t e = thread; e < head; e += threads) {
    breaks |= column_out_of_range(entries[e], num_cols);
  }
  for (std::int64_t e = head + loads * kPerLoad + thread; e < num_entries; e += threads) {
    breaks |= column_out_of_range(entries[e], num_cols);
  }
  if (breaks) *malformed = 1;
}

}  // namespace kspmv::cuda::detail
