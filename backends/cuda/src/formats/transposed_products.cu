#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/grid.hpp"
#include "formats/transposed_products.hpp"
#include "instantiate/index_types.hpp"
#include "kernels/gather_kernel.cuh"
#include "kernels/sorted_columns.cuh"
#include "kernels/tile_rows.cuh"

namespace kspmv::cuda::detail {
namespace {

constexpr int kThreads = 256;

// The block of A^T's rows holding entry k: where its column's row of A^T starts, over the block
// size.
template <class Ordinal, class Offset>
__device__ std::int64_t block_of_entry(const Ordinal* entries, const Offset* transposed_row_map,
                                       std::int64_t k, std::int64_t block_entries) {
  return static_cast<std::int64_t>(transposed_row_map[entries[k]]) / block_entries;
}

template <class Ordinal, class Offset, class Key>
__global__ void block_of_entry_kernel(const Ordinal* entries, const Offset* transposed_row_map,
                                      std::int64_t num_entries, std::int64_t block_entries,
                                      Key* blocks) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k >= num_entries) return;
  blocks[k] = static_cast<Key>(block_of_entry(entries, transposed_row_map, k, block_entries));
}

// A block a tile: its entries sorted by their blocks of A^T's rows (the first `bits` bits are all
// a block number has), giving each place its slot and each entry its place. Within a block the
// slots follow A's order, as do the tile's places: sorting stably by block is sorting by slot,
// in fewer passes than the slots' bits would take (2 against 7 on 32M entries).
template <int kTile, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    stage_tile_slots_kernel(const Ordinal* entries, const Offset* transposed_row_map,
                            const Offset* slot_of_entry, std::int64_t num_entries,
                            std::int64_t block_entries, int bits, std::uint16_t* staged_position,
                            Offset* slot_of_staged) {
  constexpr int kItems = kTile / kTileThreads;
  using Key = std::make_unsigned_t<Offset>;
  using Sort = cub::BlockRadixSort<Key, kTileThreads, kItems, std::uint16_t>;
  __shared__ typename Sort::TempStorage sort;
  const TileExtent extent = tile_extent<kTile>(blockIdx.x, num_entries);
  Key keys[kItems];
  std::uint16_t places[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int k = static_cast<int>(threadIdx.x) * kItems + i;
    // Past A's end a key above every block sorts last.
    keys[i] = k < extent.length ? static_cast<Key>(block_of_entry(entries, transposed_row_map,
                                                                  extent.start + k, block_entries))
                                : static_cast<Key>(~Key{0} >> (8 * sizeof(Key) - bits));
    places[i] = static_cast<std::uint16_t>(k);
  }
  Sort(sort).Sort(keys, places, 0, bits);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int rank = static_cast<int>(threadIdx.x) * kItems + i;
    if (rank < extent.length) {
      slot_of_staged[extent.start + rank] = slot_of_entry[extent.start + places[i]];
      staged_position[extent.start + places[i]] = static_cast<std::uint16_t>(rank);
    }
  }
}

// first_rows[t]: the row of tile t's first entry; first_rows[num_tiles]: A's last row.
template <int kTile, class Ordinal, class Offset>
__global__ void tile_first_rows_kernel(const Offset* row_map, std::int64_t num_rows,
                                       std::int64_t num_tiles, Ordinal* first_rows) {
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (t > num_tiles) return;
  first_rows[t] = static_cast<Ordinal>(
      t == num_tiles ? num_rows - 1 : row_holding_entry(row_map, num_rows, t * kTile));
}

}  // namespace

template <class Ordinal, class Offset>
TransposedProducts<Ordinal, Offset> build_transposed_products(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_entries,
    const Offset* transposed_row_map, const Offset* source_entry, std::int64_t block_entries,
    int tile_entries, cudaStream_t stream) {
  TransposedProducts<Ordinal, Offset> p;
  if (num_entries == 0) return p;
  const auto n = static_cast<std::size_t>(num_entries);
  p.num_tiles = (num_entries + tile_entries - 1) / tile_entries;
  p.tile_first_row = DeviceBuffer<Ordinal>(static_cast<std::size_t>(p.num_tiles) + 1);
  const auto first_rows = tile_entries == 2048 ? tile_first_rows_kernel<2048, Ordinal, Offset>
                                               : tile_first_rows_kernel<1024, Ordinal, Offset>;
  first_rows<<<grid_for(p.num_tiles + 1, kThreads), kThreads, 0, stream>>>(
      row_map, num_rows, p.num_tiles, p.tile_first_row.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());

  // The sort ping-pongs between each pair of buffers; the slots are then computed from whichever
  // holds the sorted positions.
  using Key = std::make_unsigned_t<Offset>;
  DeviceBuffer<Key> blocks(n);
  DeviceBuffer<Key> other_blocks(n);
  DeviceBuffer<Offset> positions(n);
  DeviceBuffer<Offset> other_positions(n);
  block_of_entry_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(
      entries, transposed_row_map, num_entries, block_entries, blocks.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  iota_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(positions.data(),
                                                                        num_entries);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  cub::DoubleBuffer<Key> keys(blocks.data(), other_blocks.data());
  cub::DoubleBuffer<Offset> values(positions.data(), other_positions.data());
  const int end_bit = significant_bits((num_entries - 1) / block_entries + 1);
  std::size_t scratch_bytes = 0;
  KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, keys, values,
                                                   num_entries, 0, end_bit, stream));
  DeviceBuffer<unsigned char> scratch(scratch_bytes);
  KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), scratch_bytes, keys, values,
                                                   num_entries, 0, end_bit, stream));
  DeviceBuffer<Offset> slot_of_entry(n);
  rank_of_position_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(
      values.Current(), num_entries, slot_of_entry.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  p.slot_of_transposed_entry = DeviceBuffer<Offset>(n);
  gather_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(
      slot_of_entry.data(), source_entry, p.slot_of_transposed_entry.data(), num_entries);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  p.staged_position = DeviceBuffer<std::uint16_t>(n);
  p.slot_of_staged = DeviceBuffer<Offset>(n);
  const auto stage = tile_entries == 2048 ? stage_tile_slots_kernel<2048, Ordinal, Offset>
                                          : stage_tile_slots_kernel<1024, Ordinal, Offset>;
  stage<<<static_cast<unsigned>(p.num_tiles), kTileThreads, 0, stream>>>(
      entries, transposed_row_map, slot_of_entry.data(), num_entries, block_entries, end_bit,
      p.staged_position.data(), p.slot_of_staged.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  // The temporaries are freed on return: wait until the device is done with them.
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return p;
}

#define KSPMV_INSTANTIATE_TRANSPOSED_PRODUCTS(ORDINAL, OFFSET)                                 \
  template TransposedProducts<ORDINAL, OFFSET> build_transposed_products<ORDINAL, OFFSET>(     \
      const OFFSET*, const ORDINAL*, std::int64_t, std::int64_t, const OFFSET*, const OFFSET*, \
      std::int64_t, int, cudaStream_t);
KSPMV_FOR_EACH_INDEX_PAIR(KSPMV_INSTANTIATE_TRANSPOSED_PRODUCTS)
#undef KSPMV_INSTANTIATE_TRANSPOSED_PRODUCTS

}  // namespace kspmv::cuda::detail
