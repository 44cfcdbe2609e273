#pragma once
// The 16-bit deltas: a compressed copy of A's column indices, 16 bits an entry instead of 32 or 64,
// each entry's column as its signed distance from the entry's row (column = row + delta). A row
// with an entry 2^15 or more columns from it is escaped (a bit per row): its columns are read from
// A's own array. A's arrays stay as they are and the values are read in place. Only kernels that
// know the row before they read its columns (Vector, Scalar) can decode it; they get the same
// column for every entry, so they sum the same products in the same order: bit for bit the same y.
// Whether a row is escaped is known before its loads, so they stay batched (a per-entry escape
// would put a branch on each delta between one entry's loads and the next's).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "device/carver.hpp"
#include "device/cuda_check.hpp"
#include "device/device_scalar.cuh"
#include "formats/column_form.hpp"
#include "formats/form_build.cuh"
#include "formats/own_columns.cuh"

namespace kspmv::cuda::detail {

struct ColumnDeltaArrays {
  const std::int16_t* deltas = nullptr;
  const std::uint32_t* escaped_rows = nullptr;  // bit row % 32 of word row / 32

  static std::int64_t escaped_row_words(std::int64_t num_rows) { return (num_rows + 31) / 32; }

  __device__ RowColumns row_columns(std::int64_t row, std::int64_t) const {
    return {((__ldg(escaped_rows + row / 32) >> (row % 32)) & 1u) == 0, 0};
  }
  template <class Ordinal>
  __device__ Ordinal column(std::int64_t entry, std::int64_t row, std::int64_t) const {
    return static_cast<Ordinal>(row + load_streaming(deltas + entry));
  }
};

// A warp per row (grid-stride): every entry's delta (0 where it does not fit), the row's bit where
// one does not, and the rows escaped (*escaped_rows_count) and their entries (*escaped_entries).
template <class Offset, class Ordinal>
__global__ void column_deltas_kernel(const Offset* row_map, const Ordinal* entries,
                                     std::int64_t num_rows, std::int16_t* deltas,
                                     std::uint32_t* escaped_rows,
                                     unsigned long long* escaped_rows_count,
                                     unsigned long long* escaped_entries) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t warps = gridDim.x * static_cast<std::int64_t>(blockDim.x) / 32;
  for (std::int64_t row = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
       row < num_rows; row += warps) {
    const auto begin = static_cast<std::int64_t>(row_map[row]);
    const auto end = static_cast<std::int64_t>(row_map[row + 1]);
    bool escaped = false;
    for (std::int64_t entry = begin + lane; entry < end; entry += 32) {
      const std::int64_t delta = static_cast<std::int64_t>(entries[entry]) - row;
      const bool fits = delta >= -kDeltaReach && delta <= kDeltaReach;
      deltas[entry] = fits ? static_cast<std::int16_t>(delta) : std::int16_t{0};
      escaped = escaped || !fits;
    }
    if (__any_sync(0xffffffffu, escaped) && lane == 0) {
      atomicOr(escaped_rows + row / 32, 1u << (row % 32));
      atomicAdd(escaped_rows_count, 1ull);
      atomicAdd(escaped_entries, static_cast<unsigned long long>(end - begin));
    }
  }
}

struct ColumnDeltas {
  using Arrays = ColumnDeltaArrays;
  static constexpr ColumnForm kForm = ColumnForm::ColumnDeltas;
  static constexpr bool kCompressed = true;
  static constexpr bool kReadsColumns = true;
  static constexpr bool kColumnsFromCache = false;  // streamed from DRAM, entry by entry
  static constexpr bool kBoundedVectorKernel = false;

  // Device memory of the build: the two counts, the row bits, the deltas.
  static std::size_t build_bytes(std::int64_t rows, std::int64_t entries) {
    return 2 * sizeof(unsigned long long) +
           static_cast<std::size_t>(Arrays::escaped_row_words(rows)) * sizeof(std::uint32_t) +
           static_cast<std::size_t>(entries) * sizeof(std::int16_t);
  }

  // Bytes of columns a one-vector call reads: the deltas, the row bits, and the escaped rows' own.
  static std::size_t column_bytes(std::int64_t rows, std::int64_t entries,
                                  std::int64_t escaped_entries, std::size_t ordinal_bytes) {
    return static_cast<std::size_t>(entries) * sizeof(std::int16_t) +
           static_cast<std::size_t>(Arrays::escaped_row_words(rows)) * sizeof(std::uint32_t) +
           static_cast<std::size_t>(escaped_entries) * ordinal_bytes;
  }

  static std::string escape_refusal(std::int64_t escaped_entries, std::int64_t entries) {
    return std::to_string(escaped_entries) + " of " + std::to_string(entries) +
           " entries in rows with an entry 2^15 or more columns away";
  }

  // No sample: nothing of the plan's scratch.
  static std::size_t sample_bytes(std::int64_t) { return 0; }

  // Builds the deltas in the form's memory; waits for the stream.
  template <class Offset, class Ordinal, class Allocate>
  static FormBuild<Arrays> build(const Offset* row_map, const Ordinal* entries, std::int64_t rows,
                                 std::int64_t num_entries, const FormMemory<Allocate>& memory,
                                 cudaStream_t stream) {
    const auto words = static_cast<std::size_t>(Arrays::escaped_row_words(rows));
    unsigned long long* counts = nullptr;
    std::uint32_t* escaped_row_bits = nullptr;
    std::int16_t* deltas = nullptr;
    auto carve = carver(memory.allocate());
    carve(counts, 2);
    carve(escaped_row_bits, words);
    carve(deltas, static_cast<std::size_t>(num_entries));
    KSPMV_CUDA_CHECK(cudaMemsetAsync(
        counts, 0, 2 * sizeof(unsigned long long) + words * sizeof(std::uint32_t), stream));
    constexpr int kThreads = 256;
    const auto blocks =
        static_cast<unsigned>(std::min<std::int64_t>((rows * 32 + kThreads - 1) / kThreads, 8192));
    column_deltas_kernel<<<blocks, kThreads, 0, stream>>>(row_map, entries, rows, deltas,
                                                          escaped_row_bits, counts, counts + 1);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    FormBuild<Arrays> build;
    read_escaped_counts(counts, build, stream);
    build.arrays = {deltas, escaped_row_bits};
    build.note = "16 bits an entry, its distance from its row (" +
                 std::to_string(build.escaped_rows) + " of " + std::to_string(rows) +
                 " rows escaped to A's own)";
    return build;
  }
};

}  // namespace kspmv::cuda::detail
