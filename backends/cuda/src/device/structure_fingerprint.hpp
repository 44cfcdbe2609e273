#pragma once
// The fingerprint of a CSR structure (its row map and columns). The plan a call without a handle
// keeps for modes T and H holds A^T's structure, which depends on A's; it is reused only while A's
// structure at the same addresses has the fingerprint it was made for.
//
// Each element adds mix(position, value) to one 64-bit sum: an integer sum, the same in whatever
// order the device's threads add. For a fixed position the term is a bijection of the value, so
// structures that differ in one element always differ here; unrelated changes to several elements
// collide with a probability of about 2^-64. No CUDA header: the CPU tests compute it too.

#include <cstdint>

#include "kspmv/detail/host_device.hpp"

namespace kspmv::cuda::detail {

// SplitMix64's finaliser: a bijection of 64-bit words whose every output bit depends on every
// input bit.
KSPMV_HOST_DEVICE inline std::uint64_t fingerprint_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The row map's elements are positions 0..rows, the columns' rows + 1 onward.
KSPMV_HOST_DEVICE inline std::uint64_t fingerprint_term(std::uint64_t position,
                                                        std::uint64_t value) {
  return fingerprint_mix(position * 0x9e3779b97f4a7c15ULL + value);
}

// The definition the device's kernel (kernels/structure_fingerprint_kernel.cuh) follows.
template <class Ordinal, class Offset>
std::uint64_t structure_fingerprint(const Offset* row_map, const Ordinal* entries,
                                    std::int64_t num_rows, std::int64_t num_entries) {
  std::uint64_t sum = 0;
  for (std::int64_t i = 0; i <= num_rows; ++i) {
    sum += fingerprint_term(static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(row_map[i]));
  }
  for (std::int64_t e = 0; e < num_entries; ++e) {
    sum += fingerprint_term(static_cast<std::uint64_t>(num_rows + 1 + e),
                            static_cast<std::uint64_t>(entries[e]));
  }
  return sum;
}

}  // namespace kspmv::cuda::detail
