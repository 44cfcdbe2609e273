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

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device/carver.hpp"
#include "device/cuda_check.hpp"
#include "formats/column_form.hpp"
#include "formats/form_build.cuh"
#include "formats/own_columns.cuh"
#include "formats/row_pattern_dictionary.hpp"

namespace kspmv::cuda::detail {

struct RowPatternArrays {
  static constexpr std::uint16_t kEscapedRow = 0xffff;
  const std::uint16_t* row_pattern = nullptr;  // where each row's distances start in `distances`
  const std::int32_t* distances = nullptr;

  __device__ RowColumns row_columns(std::int64_t row, std::int64_t begin) const {
    const std::uint16_t start = __ldg(row_pattern + row);
    return {start != kEscapedRow, static_cast<std::int64_t>(start) - begin};
  }
  template <class Ordinal>
  __device__ Ordinal column(std::int64_t entry, std::int64_t row, std::int64_t base) const {
    return static_cast<Ordinal>(row + __ldg(distances + base + entry));
  }
};

// Whether `column` lies within 32 bits of `row` (then `distance` is how far): always for 32-bit
// ordinals, whose rows and columns both lie in [0, 2^31), so they skip the 64-bit check.
template <class Ordinal>
__device__ inline bool pattern_distance(Ordinal column, std::int64_t row, std::int32_t& distance) {
  if constexpr (sizeof(Ordinal) <= sizeof(std::int32_t)) {
    distance = static_cast<std::int32_t>(column) - static_cast<std::int32_t>(row);
    return true;
  } else {
    constexpr std::int64_t kFarthest = 2147483647;
    const std::int64_t wide = static_cast<std::int64_t>(column) - row;
    distance = static_cast<std::int32_t>(wide);
    return wide >= -kFarthest && wide <= kFarthest;
  }
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
    std::int32_t distance = 0;
    fits = pattern_distance(entries[begin + k], row, distance);
    if (fits) distances[i * kLongestSampledPattern + k] = distance;
  }
  fits = __all_sync(0xffffffffu, fits);
  if (lane == 0) lengths[i] = fits ? static_cast<std::int32_t>(length) : -1;
}

// Lanes a row in match_row_patterns_kernel: a warp matches four rows at once, and each lane holds
// kHeldDistances of its row's distances in registers, enough for the longest pattern the sample
// keeps: a longer row is escaped without reading its columns.
inline constexpr int kMatchLanes = 8;
inline constexpr int kHeldDistances = kLongestSampledPattern / kMatchLanes;
static_assert(kHeldDistances * kMatchLanes == kLongestSampledPattern);

// A group of kMatchLanes lanes per row (grid-stride): the row's pattern, kEscapedRow where the
// dictionary lacks it (then *escaped_rows and *escaped_entries count it). An empty row names
// pattern 0 (it reads none). The columns are read once, all before any is used; the lookup table
// and the dictionary are small and stay in L1. (Reading the columns again for the check, and
// hashing in 64 bits, was slower on the 27-point stencil than reading them once with the next row's
// offsets loaded ahead: DR-25.)
template <class Offset, class Ordinal>
__global__ void match_row_patterns_kernel(const Offset* row_map, const Ordinal* entries,
                                          std::int64_t num_rows, const PatternSlot* slots,
                                          std::uint32_t slot_mask, const std::int32_t* dictionary,
                                          std::uint16_t* row_pattern,
                                          unsigned long long* escaped_rows,
                                          unsigned long long* escaped_entries) {
  const int lane = static_cast<int>(threadIdx.x % kMatchLanes);
  const unsigned group = ((1u << kMatchLanes) - 1u)
                         << (threadIdx.x % 32 / kMatchLanes * kMatchLanes);
  const std::int64_t groups = gridDim.x * static_cast<std::int64_t>(blockDim.x) / kMatchLanes;
  const std::int64_t first =
      (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / kMatchLanes;
  // Each row's offsets are loaded while the row before it is matched, so a row waits on one DRAM
  // round trip (its columns), not two.
  const auto offsets_of = [&](std::int64_t row, Offset& begin, Offset& end) {
    if (row < num_rows) {
      begin = row_map[row];
      end = row_map[row + 1];
    }
  };
  Offset next_begin{}, next_end{};
  offsets_of(first, next_begin, next_end);
  for (std::int64_t row = first; row < num_rows; row += groups) {
    const auto begin = static_cast<std::int64_t>(next_begin);
    const std::int64_t length = static_cast<std::int64_t>(next_end) - begin;
    offsets_of(row + groups, next_begin, next_end);
    // The loops stop at the row's end: predicated off, the slots past it would still issue.
    bool fits = length <= kLongestSampledPattern;
    Ordinal columns[kHeldDistances];
#pragma unroll
    for (int i = 0; i < kHeldDistances; ++i) {
      const int k = lane + i * kMatchLanes;
      if (!fits || k >= length) break;
      columns[i] = entries[begin + k];
    }
    std::int32_t held[kHeldDistances];
    std::uint32_t hash = 0;
#pragma unroll
    for (int i = 0; i < kHeldDistances; ++i) {
      const int k = lane + i * kMatchLanes;
      if (!fits || k >= length) break;
      fits = pattern_distance(columns[i], row, held[i]);
      hash += pattern_hash_term(held[i], k);
    }
    fits = __all_sync(group, fits);
    for (int step = kMatchLanes / 2; step > 0; step /= 2) {
      hash += __shfl_xor_sync(group, hash, step, kMatchLanes);
    }
    std::int64_t start = length == 0 ? 0 : -1;
    for (std::uint32_t slot = hash & slot_mask; fits && start < 0; slot = (slot + 1) & slot_mask) {
      const PatternSlot candidate = slots[slot];
      if (candidate.start < 0) break;
      if (candidate.hash != hash || candidate.length != length) continue;
      bool same = true;
#pragma unroll
      for (int i = 0; i < kHeldDistances; ++i) {
        const int k = lane + i * kMatchLanes;
        if (k >= length) break;
        same = same && held[i] == dictionary[candidate.start + k];
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

struct RowPatterns {
  using Arrays = RowPatternArrays;
  static constexpr ColumnForm kForm = ColumnForm::RowPatterns;
  static constexpr bool kCompressed = true;
  static constexpr bool kReadsColumns = true;
  // The dictionary's distances come from L1, long before the values: no tie of the x gathers to
  // the values (SpmvArguments::gathers_after_values).
  static constexpr bool kColumnsFromCache = true;
  static constexpr bool kBoundedVectorKernel = true;  // vector_kernel.cuh

  // The stratified sample: one row in every row_step, so that at most kPatternSampleRows are read.
  static std::int64_t sample_step(std::int64_t rows) {
    return std::max<std::int64_t>(1, (rows + kPatternSampleRows - 1) / kPatternSampleRows);
  }
  static std::size_t sampled_rows(std::int64_t rows) {
    const std::int64_t step = sample_step(rows);
    return static_cast<std::size_t>((rows + step - 1) / step);
  }

  // The sample's distances and lengths, read back to the host: in the plan's scratch.
  static std::size_t sample_bytes(std::int64_t rows) {
    return sampled_rows(rows) * (1 + kLongestSampledPattern) * sizeof(std::int32_t);
  }

  // The form's memory, allocated once the sample has found repeated patterns: the counts, the
  // lookup table (at most 2 slots a sampled row: a pattern is seen twice, and the slots are the
  // power of two from twice the patterns), the dictionary, and each row's pattern.
  static std::size_t build_bytes(std::int64_t rows, std::int64_t) {
    return 2 * sizeof(unsigned long long) + 2 * sampled_rows(rows) * sizeof(PatternSlot) +
           kMostPatternEntries * sizeof(std::int32_t) +
           static_cast<std::size_t>(rows) * sizeof(std::uint16_t);
  }

  // Bytes of columns a one-vector call reads: 16 bits a row and the escaped rows' own columns (the
  // dictionary stays in L1).
  static std::size_t column_bytes(std::int64_t rows, std::int64_t, std::int64_t escaped_entries,
                                  std::size_t ordinal_bytes) {
    return static_cast<std::size_t>(rows) * sizeof(std::uint16_t) +
           static_cast<std::size_t>(escaped_entries) * ordinal_bytes;
  }

  static std::string escape_refusal(std::int64_t escaped_entries, std::int64_t entries) {
    return std::to_string(escaped_entries) + " of " + std::to_string(entries) +
           " entries in rows whose pattern no two sampled rows share";
  }

  // Samples the rows (in the plan's scratch), keeps the dictionary of repeated patterns and names
  // each row's in the form's memory; refused, with nothing allocated, where no sampled pattern
  // repeats. Waits for the stream.
  template <class Offset, class Ordinal, class Allocate>
  static FormBuild<Arrays> build(const Offset* row_map, const Ordinal* entries, std::int64_t rows,
                                 std::int64_t, const FormMemory<Allocate>& memory,
                                 cudaStream_t stream) {
    const std::int64_t row_step = sample_step(rows);
    const std::size_t sampled = sampled_rows(rows);
    const std::size_t sample_words = sampled * (1 + kLongestSampledPattern);
    const auto sample = reinterpret_cast<std::int32_t*>(memory.scratch);
    // A short row's unused distance slots are copied to the host with the rest (never read there):
    // zeroed, so that no copy reads memory nothing wrote (compute-sanitizer's initcheck).
    KSPMV_CUDA_CHECK(cudaMemsetAsync(sample, 0, sample_words * sizeof(std::int32_t), stream));
    constexpr int kThreads = 256;
    const auto sample_threads = static_cast<std::int64_t>(sampled) * 32;
    sample_row_patterns_kernel<<<static_cast<unsigned>((sample_threads + kThreads - 1) / kThreads),
                                 kThreads, 0, stream>>>(row_map, entries, rows, row_step,
                                                        static_cast<std::int64_t>(sampled), sample,
                                                        sample + sampled);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    std::vector<std::int32_t> host_sample(sample_words);
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(host_sample.data(), sample,
                                     sample_words * sizeof(std::int32_t), cudaMemcpyDeviceToHost,
                                     stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    const RowPatternDictionary dictionary =
        row_pattern_dictionary(host_sample.data(), sampled, host_sample.data() + sampled);
    FormBuild<Arrays> build;
    if (dictionary.patterns == 0) {
      build.refusal = "no pattern repeats among the sampled rows";
      return build;
    }
    unsigned long long* counts = nullptr;
    PatternSlot* slots = nullptr;
    std::int32_t* distances = nullptr;
    std::uint16_t* row_pattern = nullptr;
    auto carve = carver(memory.allocate());
    carve(counts, 2);
    carve(slots, 2 * sampled);
    carve(distances, static_cast<std::size_t>(kMostPatternEntries));
    carve(row_pattern, static_cast<std::size_t>(rows));
    KSPMV_CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned long long), stream));
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(distances, dictionary.distances.data(),
                                     dictionary.distances.size() * sizeof(std::int32_t),
                                     cudaMemcpyHostToDevice, stream));
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(slots, dictionary.slots.data(),
                                     dictionary.slots.size() * sizeof(PatternSlot),
                                     cudaMemcpyHostToDevice, stream));
    const auto blocks = static_cast<unsigned>(
        std::min<std::int64_t>((rows * kMatchLanes + kThreads - 1) / kThreads, 8192));
    match_row_patterns_kernel<<<blocks, kThreads, 0, stream>>>(
        row_map, entries, rows, slots, static_cast<std::uint32_t>(dictionary.slots.size() - 1),
        distances, row_pattern, counts, counts + 1);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    read_escaped_counts(counts, build, stream);
    build.arrays = {row_pattern, distances};
    build.note = "row patterns, 16 bits a row naming one of " +
                 std::to_string(dictionary.patterns) + " (" +
                 std::to_string(dictionary.distances.size()) +
                 " distances from the row in all) that sampled rows repeat (" +
                 std::to_string(build.escaped_rows) + " of " + std::to_string(rows) + " rows " +
                 "escaped to A's own)";
    return build;
  }
};

}  // namespace kspmv::cuda::detail
