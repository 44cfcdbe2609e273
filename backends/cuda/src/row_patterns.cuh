#pragma once
// The plan's dictionary of row patterns: where many rows have the same columns relative to their
// row (a stencil on a structured grid: every interior row reads row + the same distances), the plan
// keeps each distinct pattern once, as 32-bit distances, and each row names its pattern in 16 bits
// (where its distances start in the dictionary): 2 bytes a row instead of 2 or 4 an entry. A row
// whose pattern the dictionary lacks is escaped and reads A's own columns. The dictionary is small
// (kMostPatternEntries) and read through the read-only cache, where it stays. As with the 16-bit
// deltas (column_deltas.cuh), only kernels that know the row before they read its columns decode
// it, and they sum the same products in the same order.
//
// Built in three steps: the rows of a stratified sample (no row twice) are read back as distances
// (sample_row_patterns_kernel); the host keeps the patterns seen in two sampled rows or more
// (row_pattern_dictionary.hpp); every row then finds its pattern by a hash of its distances and
// checks it entry by entry (match_row_patterns_kernel).

#include <cstdint>

namespace kspmv::cuda::detail {

struct RowPatternArrays {
  static constexpr std::uint16_t kEscapedRow = 0xffff;
  const std::uint16_t* row_pattern = nullptr;  // where each row's distances start in `distances`
  const std::int32_t* distances = nullptr;
};

inline constexpr std::int64_t kPatternSampleRows = 1024;
inline constexpr int kLongestSampledPattern = 64;  // longer sampled rows join no pattern
// 16 KB of distances: a dictionary that stays in L1, and starts that stay below kEscapedRow.
inline constexpr std::int64_t kMostPatternEntries = 4096;

// The dictionary's lookup table: open addressing on a row's hash, a power of two slots with at
// least one free (start < 0).
struct PatternSlot {
  std::uint64_t hash;
  std::int32_t start;
  std::int32_t length;
};

// Entry `position` of a row at `distance` from it contributes this to the row's hash, which sums
// the contributions (so a warp may add them in any order); splitmix64's finaliser.
__host__ __device__ inline std::uint64_t pattern_hash_term(std::int32_t distance,
                                                           std::int64_t position) {
  std::uint64_t z = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(distance)) |
                     (static_cast<std::uint64_t>(position) << 32)) +
                    0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline constexpr std::int64_t kFarthestPatternDistance = 2147483647;  // 32-bit distances

__device__ inline bool fits_pattern_distance(std::int64_t distance) {
  return distance >= -kFarthestPatternDistance && distance <= kFarthestPatternDistance;
}

// Row `i` of the sample: one in stratum i of `row_step` rows, at a position a hash of i picks
// (evenly spaced rows would alias with a grid's period).
__device__ inline std::int64_t sampled_row(std::int64_t i, std::int64_t row_step,
                                           std::int64_t num_rows) {
  const std::int64_t row =
      i * row_step +
      static_cast<std::int64_t>(pattern_hash_term(0, i) % static_cast<std::uint64_t>(row_step));
  return row < num_rows ? row : num_rows - 1;
}

// A warp per sampled row: its length (-1 where it is longer than kLongestSampledPattern or a
// distance does not fit 32 bits) and its distances, kLongestSampledPattern slots a row.
template <class Offset, class Ordinal>
__global__ void sample_row_patterns_kernel(const Offset* row_map, const Ordinal* entries,
                                           std::int64_t num_rows, std::int64_t row_step,
                                           std::int64_t sample_rows, std::int32_t* lengths,
                                           std::int32_t* distances) {
  const std::int64_t i = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (i >= sample_rows) return;
  const std::int64_t row = sampled_row(i, row_step, num_rows);
  const auto begin = static_cast<std::int64_t>(row_map[row]);
  const std::int64_t length = static_cast<std::int64_t>(row_map[row + 1]) - begin;
  bool fits = length <= kLongestSampledPattern;
  for (std::int64_t k = lane; fits && k < length; k += 32) {
    const std::int64_t distance = static_cast<std::int64_t>(entries[begin + k]) - row;
    if (fits_pattern_distance(distance)) {
      distances[i * kLongestSampledPattern + k] = static_cast<std::int32_t>(distance);
    } else {
      fits = false;
    }
  }
  fits = __all_sync(0xffffffffu, fits);
  if (lane == 0) lengths[i] = fits ? static_cast<std::int32_t>(length) : -1;
}

// Lanes a row in match_row_patterns_kernel: a warp matches four rows at once (a warp a row took
// 1.5 ms on the 27-point stencil, 4M rows: each row's loads wait on the last's).
inline constexpr int kMatchLanes = 8;

// A group of kMatchLanes lanes per row (grid-stride): the row's pattern, kEscapedRow where the
// dictionary lacks it (then *escaped_rows and *escaped_entries count it). An empty row names
// pattern 0 (it reads none).
template <class Offset, class Ordinal>
__global__ void match_row_patterns_kernel(const Offset* row_map, const Ordinal* entries,
                                          std::int64_t num_rows, const PatternSlot* slots,
                                          std::uint64_t slot_mask, const std::int32_t* dictionary,
                                          std::uint16_t* row_pattern,
                                          unsigned long long* escaped_rows,
                                          unsigned long long* escaped_entries) {
  const int lane = static_cast<int>(threadIdx.x % kMatchLanes);
  const unsigned group = ((1u << kMatchLanes) - 1u)
                         << (threadIdx.x % 32 / kMatchLanes * kMatchLanes);
  const std::int64_t groups = gridDim.x * static_cast<std::int64_t>(blockDim.x) / kMatchLanes;
  for (std::int64_t row =
           (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / kMatchLanes;
       row < num_rows; row += groups) {
    const auto begin = static_cast<std::int64_t>(row_map[row]);
    const std::int64_t length = static_cast<std::int64_t>(row_map[row + 1]) - begin;
    const auto distance = [&](std::int64_t k) {
      return static_cast<std::int64_t>(entries[begin + k]) - row;
    };
    bool fits = length <= kFarthestPatternDistance;
    std::uint64_t hash = 0;
    for (std::int64_t k = lane; k < length; k += kMatchLanes) {
      const std::int64_t d = distance(k);
      fits = fits && fits_pattern_distance(d);
      hash += pattern_hash_term(static_cast<std::int32_t>(d), k);
    }
    fits = __all_sync(group, fits);
    for (int step = kMatchLanes / 2; step > 0; step /= 2) {
      hash += __shfl_xor_sync(group, hash, step, kMatchLanes);
    }
    std::int64_t start = length == 0 ? 0 : -1;
    for (std::uint64_t slot = hash & slot_mask; fits && start < 0; slot = (slot + 1) & slot_mask) {
      const PatternSlot candidate = slots[slot];
      if (candidate.start < 0) break;
      if (candidate.hash != hash || candidate.length != length) continue;
      bool same = true;
      for (std::int64_t k = lane; k < length; k += kMatchLanes) {
        same = same && distance(k) == dictionary[candidate.start + k];
      }
      if (__all_sync(group, same)) start = candidate.start;
    }
    if (lane == 0) {
      row_pattern[row] =
          start < 0 ? RowPatternArrays::kEscapedRow : static_cast<std::uint16_t>(start);
      if (start < 0) {
        atomicAdd(escaped_rows, 1ull);
        atomicAdd(escaped_entries, static_cast<unsigned long long>(length));
      }
    }
  }
}

}  // namespace kspmv::cuda::detail
