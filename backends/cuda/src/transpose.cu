#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>

#include "transpose.hpp"

namespace kspmv::cuda::detail {
namespace {

constexpr int kThreads = 256;

std::int64_t blocks_for(std::int64_t items) {
  return (items + kThreads - 1) / kThreads;
}

template <class Offset>
__global__ void iota_kernel(Offset* out, std::int64_t length) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < length) out[i] = static_cast<Offset>(i);
}

// row_map_t[c] = first position of column c among the sorted columns.
template <class Ordinal, class Offset>
__global__ void column_starts_kernel(const Ordinal* sorted_columns, std::int64_t num_entries,
                                     std::int64_t num_cols, Offset* row_map_t) {
  const std::int64_t column = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (column > num_cols) return;
  std::int64_t low = 0;
  std::int64_t high = num_entries;
  while (low < high) {
    const std::int64_t middle = low + (high - low) / 2;
    if (static_cast<std::int64_t>(sorted_columns[middle]) < column) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  row_map_t[column] = static_cast<Offset>(low);
}

// entries_t[p] = the row of A holding entry source_entry[p].
template <class Ordinal, class Offset>
__global__ void source_rows_kernel(const Offset* row_map, std::int64_t num_rows,
                                   const Offset* source_entry, std::int64_t num_entries,
                                   Ordinal* entries_t) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p >= num_entries) return;
  const auto entry = static_cast<std::int64_t>(source_entry[p]);
  std::int64_t low = 0;
  std::int64_t high = num_rows - 1;
  while (low < high) {  // last row starting at or before entry
    const std::int64_t middle = low + (high - low + 1) / 2;
    if (static_cast<std::int64_t>(row_map[middle]) <= entry) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  entries_t[p] = static_cast<Ordinal>(low);
}

int significant_bits(std::int64_t value) {
  int bits = 1;
  while (bits < 63 && (std::int64_t(1) << bits) <= value) ++bits;
  return bits;
}

}  // namespace

template <class Ordinal, class Offset>
TransposedStructure<Ordinal, Offset> transpose_structure(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_cols,
    std::int64_t num_entries, cudaStream_t stream) {
  const auto n = static_cast<std::size_t>(num_entries);
  TransposedStructure<Ordinal, Offset> t{
      DeviceBuffer<Offset>(static_cast<std::size_t>(num_cols) + 1), DeviceBuffer<Ordinal>(n),
      DeviceBuffer<Offset>(n)};
  if (num_entries > 0) {
    DeviceBuffer<Ordinal> sorted_columns(n);
    DeviceBuffer<Offset> positions(n);
    iota_kernel<<<blocks_for(num_entries), kThreads, 0, stream>>>(positions.data(), num_entries);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    // A's entries are in row order, so a stable sort by column leaves each column's rows
    // increasing.
    const int end_bit = significant_bits(num_cols);
    std::size_t scratch_bytes = 0;
    KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, scratch_bytes, entries, sorted_columns.data(), positions.data(),
        t.source_entry.data(), num_entries, 0, end_bit, stream));
    DeviceBuffer<unsigned char> scratch(scratch_bytes);
    KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        scratch.data(), scratch_bytes, entries, sorted_columns.data(), positions.data(),
        t.source_entry.data(), num_entries, 0, end_bit, stream));
    source_rows_kernel<<<blocks_for(num_entries), kThreads, 0, stream>>>(
        row_map, num_rows, t.source_entry.data(), num_entries, t.entries.data());
    KSPMV_CUDA_CHECK(cudaGetLastError());
    column_starts_kernel<<<blocks_for(num_cols + 1), kThreads, 0, stream>>>(
        sorted_columns.data(), num_entries, num_cols, t.row_map.data());
    KSPMV_CUDA_CHECK(cudaGetLastError());
    // The temporaries are freed on return: wait until the device is done with them.
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  } else {
    KSPMV_CUDA_CHECK(
        cudaMemsetAsync(t.row_map.data(), 0, t.row_map.size() * sizeof(Offset), stream));
  }
  return t;
}

#define KSPMV_INSTANTIATE_TRANSPOSE(ORDINAL, OFFSET)                                  \
  template TransposedStructure<ORDINAL, OFFSET> transpose_structure<ORDINAL, OFFSET>( \
      const OFFSET*, const ORDINAL*, std::int64_t, std::int64_t, std::int64_t, cudaStream_t);
KSPMV_INSTANTIATE_TRANSPOSE(std::int32_t, std::int32_t)
KSPMV_INSTANTIATE_TRANSPOSE(std::int32_t, std::int64_t)
KSPMV_INSTANTIATE_TRANSPOSE(std::int32_t, std::size_t)
KSPMV_INSTANTIATE_TRANSPOSE(std::int64_t, std::int32_t)
KSPMV_INSTANTIATE_TRANSPOSE(std::int64_t, std::int64_t)
KSPMV_INSTANTIATE_TRANSPOSE(std::int64_t, std::size_t)
#undef KSPMV_INSTANTIATE_TRANSPOSE

}  // namespace kspmv::cuda::detail
