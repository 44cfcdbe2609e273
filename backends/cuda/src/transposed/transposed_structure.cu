#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/grid.hpp"
#include "device/index_types.hpp"
#include "kernels/sorted_columns.cuh"
#include "plan/tuning.hpp"
#include "transposed/transposed_structure.hpp"

namespace kspmv::cuda::detail {
namespace {

constexpr int kThreads = 256;

// row_of_entry[k] = the row of A holding entry k, written by a group of `lanes` threads per row.
template <class Ordinal, class Offset>
__global__ void row_of_entry_kernel(const Offset* row_map, std::int64_t num_rows, int lanes,
                                    Ordinal* row_of_entry) {
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = thread / lanes;
  if (row >= num_rows) return;
  const auto end = static_cast<std::int64_t>(row_map[row + 1]);
  for (auto entry = static_cast<std::int64_t>(row_map[row]) + thread % lanes; entry < end;
       entry += lanes) {
    row_of_entry[entry] = static_cast<Ordinal>(row);
  }
}

template <class Ordinal, class Offset>
__global__ void source_rows_kernel(const Ordinal* row_of_entry, const Offset* source_entry,
                                   std::int64_t num_entries, Ordinal* entries_t) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p < num_entries) entries_t[p] = row_of_entry[source_entry[p]];
}

// For entry p = A(i, j), its mirror A(j, i) found by a binary search of row j: A^T's entry p (row
// i of A^T, column j) takes its value from there (where source_entry is not null: a sample only
// looks). Lane `lane` of `lanes` takes every lanes-th entry of `row`. False where the row is not
// strictly increasing (then a search could miss or repeat an entry) or a mirror is missing.
template <class Ordinal, class Offset>
__device__ bool mirror_row_entries(const Offset* row_map, const Ordinal* entries,
                                   std::int64_t num_rows, std::int64_t row, int lane, int lanes,
                                   Offset* source_entry) {
  const auto begin = static_cast<std::int64_t>(row_map[row]);
  const auto end = static_cast<std::int64_t>(row_map[row + 1]);
  for (std::int64_t p = begin + lane; p < end; p += lanes) {
    const auto column = static_cast<std::int64_t>(entries[p]);
    // (A column out of range, never checked on the device, must not send the search astray.)
    if ((p > begin && static_cast<std::int64_t>(entries[p - 1]) >= column) ||
        static_cast<std::uint64_t>(column) >= static_cast<std::uint64_t>(num_rows)) {
      return false;
    }
    const auto mirror_begin = static_cast<std::int64_t>(row_map[column]);
    const auto mirror_end = static_cast<std::int64_t>(row_map[column + 1]);
    // A stencil's offsets are symmetric: the k-th entry of row i mirrors the k-th from the end
    // of row j. One probe then finds it (5 dependent loads fewer on a row of 27).
    const std::int64_t guess = mirror_end - 1 - (p - begin);
    if (guess >= mirror_begin && static_cast<std::int64_t>(entries[guess]) == row) {
      if (source_entry != nullptr) source_entry[p] = static_cast<Offset>(guess);
      continue;
    }
    std::int64_t low = mirror_begin;
    std::int64_t high = mirror_end;
    while (low < high) {
      const std::int64_t middle = low + (high - low) / 2;
      if (static_cast<std::int64_t>(entries[middle]) < row) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    if (low == mirror_end || static_cast<std::int64_t>(entries[low]) != row) return false;
    if (source_entry != nullptr) source_entry[p] = static_cast<Offset>(low);
  }
  return true;
}

// A group of `lanes` threads per visited row of A (rows 0, row_step, 2 * row_step, ...), so each
// knows its row without a search, in a grid-stride loop: the first asymmetric row sets
// *asymmetric, and every thread stops at its next row.
template <class Ordinal, class Offset>
__global__ void mirror_entries_kernel(const Offset* row_map, const Ordinal* entries,
                                      std::int64_t num_rows, std::int64_t row_step, int lanes,
                                      Offset* source_entry, int* asymmetric) {
  const std::int64_t visited_rows = (num_rows + row_step - 1) / row_step;
  const std::int64_t stride = gridDim.x * static_cast<std::int64_t>(blockDim.x);
  for (std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       thread < visited_rows * lanes; thread += stride) {
    if (*static_cast<volatile int*>(asymmetric) != 0) return;
    if (!mirror_row_entries(row_map, entries, num_rows, thread / lanes * row_step,
                            static_cast<int>(thread % lanes), lanes, source_entry)) {
      *asymmetric = 1;
      return;
    }
  }
}

// Rows the sampling pass visits before the whole search.
constexpr std::int64_t kMirrorSampleRows = 4096;

// source_entry where A^T mirrors A, else an empty buffer: one search per entry, no sort (on the
// 27-point stencil's 110M entries the radix sort below, its temporaries and the transposed plan's
// analysis cost 8 transposed calls' time; DR-09). Rows are checked to be strictly increasing along
// the way, which the search needs. A sample of rows goes first, before source_entry is allocated: a
// pattern that does not mirror almost always shows it there, in one small launch, where the whole
// search's first wave of threads, all started before any found the asymmetry, read 25 MB in 137 us
// (Nsight Compute) on 2M rows of 16 random columns (DR-61), and where allocating and freeing an
// offset an entry cost more than the search (DR-62). Called for square matrices with entries only.
template <class Ordinal, class Offset>
DeviceBuffer<Offset> mirror_entries(const Offset* row_map, const Ordinal* entries,
                                    std::int64_t num_rows, std::int64_t num_entries,
                                    cudaStream_t stream) {
  DeviceBuffer<int> asymmetric(1);
  const int lanes =
      vector_lanes_for(static_cast<double>(num_entries) / static_cast<double>(num_rows));
  const auto finds_asymmetry = [&](std::int64_t row_step, Offset* source_entry) {
    KSPMV_CUDA_CHECK(cudaMemsetAsync(asymmetric.data(), 0, sizeof(int), stream));
    const std::int64_t visited_rows = (num_rows + row_step - 1) / row_step;
    mirror_entries_kernel<<<grid_stride_blocks(visited_rows * lanes, kThreads), kThreads, 0,
                            stream>>>(row_map, entries, num_rows, row_step, lanes, source_entry,
                                      asymmetric.data());
    KSPMV_CUDA_CHECK(cudaGetLastError());
    int found = 0;
    KSPMV_CUDA_CHECK(
        cudaMemcpyAsync(&found, asymmetric.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    return found != 0;
  };
  const std::int64_t sample_step = num_rows / kMirrorSampleRows;
  if (sample_step > 1 && finds_asymmetry(sample_step, nullptr)) return {};
  DeviceBuffer<Offset> source_entry(static_cast<std::size_t>(num_entries));
  if (finds_asymmetry(1, source_entry.data())) return {};
  return source_entry;
}

}  // namespace

template <class Ordinal, class Offset>
TransposedStructure<Ordinal, Offset> mirrored_structure(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_cols,
    std::int64_t num_entries, cudaStream_t stream) {
  if (num_rows != num_cols || num_entries == 0) return {};  // never mirrors: nothing allocated
  return {{}, {}, mirror_entries(row_map, entries, num_rows, num_entries, stream)};
}

// A stable radix sort of A's entry positions by column (A's entries are in row order, so each
// column's rows stay increasing and the structure is the same on every run), then one pass for the
// column starts and one gather for the rows. The sort is most of the build's time; a counting sort
// was slower (integer atomics scattered over the slots), as was a binary search per entry for its
// row (DR-06).
template <class Ordinal, class Offset>
TransposedStructure<Ordinal, Offset> sorted_structure(const Offset* row_map, const Ordinal* entries,
                                                      std::int64_t num_rows, std::int64_t num_cols,
                                                      std::int64_t num_entries,
                                                      cudaStream_t stream) {
  const auto n = static_cast<std::size_t>(num_entries);
  const auto row_map_length = static_cast<std::size_t>(num_cols) + 1;
  TransposedStructure<Ordinal, Offset> t{DeviceBuffer<Offset>(row_map_length),
                                         DeviceBuffer<Ordinal>(n), DeviceBuffer<Offset>(n)};
  if (num_entries == 0) {
    KSPMV_CUDA_CHECK(cudaMemsetAsync(t.row_map.data(), 0, row_map_length * sizeof(Offset), stream));
    return t;
  }
  // The sort ping-pongs between t's arrays and two temporaries (each cudaFree of a large array
  // costs about a millisecond per GB); which holds the result is swapped into t afterwards.
  DeviceBuffer<Ordinal> other_columns(n);
  DeviceBuffer<Offset> other_positions(n);
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(t.entries.data(), entries, n * sizeof(Ordinal),
                                   cudaMemcpyDeviceToDevice, stream));
  iota_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(t.source_entry.data(),
                                                                        num_entries);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  cub::DoubleBuffer<Ordinal> columns(t.entries.data(), other_columns.data());
  cub::DoubleBuffer<Offset> positions(t.source_entry.data(), other_positions.data());
  const int end_bit = significant_bits(num_cols);
  std::size_t scratch_bytes = 0;
  KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, columns, positions,
                                                   num_entries, 0, end_bit, stream));
  DeviceBuffer<unsigned char> scratch(scratch_bytes);
  KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), scratch_bytes, columns,
                                                   positions, num_entries, 0, end_bit, stream));
  if (positions.Current() != t.source_entry.data()) std::swap(t.source_entry, other_positions);
  // The sorted columns (wherever they ended up) give the row map; then the array that does not
  // hold them takes each entry's row, and the sorted columns are overwritten by the rows of A^T.
  column_starts_kernel<<<grid_for(num_entries + 1, kThreads), kThreads, 0, stream>>>(
      columns.Current(), num_entries, num_cols, t.row_map.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  if (columns.Current() != t.entries.data()) std::swap(t.entries, other_columns);
  const int lanes =
      vector_lanes_for(static_cast<double>(num_entries) / static_cast<double>(num_rows));
  row_of_entry_kernel<<<grid_for(num_rows * lanes, kThreads), kThreads, 0, stream>>>(
      row_map, num_rows, lanes, other_columns.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  source_rows_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(
      other_columns.data(), t.source_entry.data(), num_entries, t.entries.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  // The temporaries are freed on return: wait until the device is done with them.
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return t;
}

#define KSPMV_INSTANTIATE_TRANSPOSE(ORDINAL, OFFSET)                                          \
  template TransposedStructure<ORDINAL, OFFSET> mirrored_structure<ORDINAL, OFFSET>(          \
      const OFFSET*, const ORDINAL*, std::int64_t, std::int64_t, std::int64_t, cudaStream_t); \
  template TransposedStructure<ORDINAL, OFFSET> sorted_structure<ORDINAL, OFFSET>(            \
      const OFFSET*, const ORDINAL*, std::int64_t, std::int64_t, std::int64_t, cudaStream_t);
KSPMV_FOR_EACH_INDEX_PAIR(KSPMV_INSTANTIATE_TRANSPOSE)
#undef KSPMV_INSTANTIATE_TRANSPOSE

}  // namespace kspmv::cuda::detail
