#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/device_parts.hpp"
#include "device/grid.hpp"
#include "device/index_types.hpp"
#include "formats/transposed_products.hpp"
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

// A block a tile: its entries sorted by their blocks of A^T's rows (the first `bits` bits are all
// a block number has; a stable sort, so within a block the places keep A's order), giving each
// entry its place (staged_position) and each place its block, its entry's place, and its rank
// within the run of its block; each run's length is its block's count of the tile,
// counts[block * num_tiles + tile] (the other counts stay zero). The sort leaves each thread
// consecutive places: they go through shared memory so that each warp writes consecutive ones.
template <int kTile, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    stage_tile_runs_kernel(const Ordinal* entries, const Offset* transposed_row_map,
                           std::int64_t num_entries, std::int64_t num_tiles,
                           std::int64_t block_entries, int bits, std::uint16_t* staged_position,
                           std::make_unsigned_t<Offset>* block_of_staged,
                           std::uint16_t* place_of_staged, std::uint16_t* rank_in_run,
                           Offset* counts) {
  constexpr int kItems = kTile / kTileThreads;
  using Key = std::make_unsigned_t<Offset>;
  using Sort = cub::BlockRadixSort<Key, kTileThreads, kItems, std::uint16_t>;
  using Runs = cub::BlockDiscontinuity<Key, kTileThreads>;
  using Heads = cub::BlockScan<int, kTileThreads>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Runs::TempStorage runs;
    typename Heads::TempStorage heads;
  } temp;
  __shared__ Key shared_block[kTile];
  __shared__ std::uint16_t shared_place[kTile];
  __shared__ std::uint16_t shared_rank_in_run[kTile];
  __shared__ std::uint16_t shared_position[kTile];
  const TileExtent extent = tile_extent<kTile>(blockIdx.x, num_entries);
  Key keys[kItems];
  std::uint16_t places[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int k = static_cast<int>(threadIdx.x) * kItems + i;
    // Past A's end a key above every block sorts last, a run of its own.
    keys[i] = k < extent.length ? static_cast<Key>(block_of_entry(entries, transposed_row_map,
                                                                  extent.start + k, block_entries))
                                : static_cast<Key>(~Key{0} >> (8 * sizeof(Key) - bits));
    places[i] = static_cast<std::uint16_t>(k);
  }
  Sort(temp.sort).Sort(keys, places, 0, bits);
  __syncthreads();
  int heads[kItems];
  int tails[kItems];
  Runs(temp.runs).FlagHeadsAndTails(heads, tails, keys, Differ());
  int head_ranks[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    head_ranks[i] = heads[i] ? static_cast<int>(threadIdx.x) * kItems + i : 0;
  }
  __syncthreads();
  int run_heads[kItems];  // the rank where each place's run begins
  Heads(temp.heads).InclusiveScan(head_ranks, run_heads, Larger());
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int rank = static_cast<int>(threadIdx.x) * kItems + i;
    shared_block[rank] = keys[i];
    shared_place[rank] = places[i];
    shared_rank_in_run[rank] = static_cast<std::uint16_t>(rank - run_heads[i]);
    shared_position[places[i]] = static_cast<std::uint16_t>(rank);
    if (tails[i] && rank < extent.length) {
      counts[static_cast<std::int64_t>(keys[i]) * num_tiles + blockIdx.x] =
          static_cast<Offset>(rank - run_heads[i] + 1);
    }
  }
  __syncthreads();
  // Ranks and places both run over [0, length): k is a rank for the first three, a place for the
  // last.
  for (int k = static_cast<int>(threadIdx.x); k < extent.length; k += kTileThreads) {
    const std::int64_t at = extent.start + k;
    block_of_staged[at] = shared_block[k];
    place_of_staged[at] = shared_place[k];
    rank_in_run[at] = shared_rank_in_run[k];
    staged_position[at] = shared_position[k];
  }
}

// Each staged place's slot: where its run starts, from the tiles' counts scanned block by block
// (first_slots[b * num_tiles + t] for the run of block b in tile t), plus its rank in the run;
// for itself and for its entry (slot_of_entry).
template <int kTile, class Offset>
__global__ void staged_slots_kernel(const std::make_unsigned_t<Offset>* block_of_staged,
                                    const std::uint16_t* place_of_staged,
                                    const std::uint16_t* rank_in_run, const Offset* first_slots,
                                    std::int64_t num_entries, std::int64_t num_tiles,
                                    Offset* slot_of_staged, Offset* slot_of_entry) {
  const std::int64_t staged = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (staged >= num_entries) return;
  const std::int64_t tile = staged / kTile;
  const Offset slot =
      first_slots[static_cast<std::int64_t>(block_of_staged[staged]) * num_tiles + tile] +
      static_cast<Offset>(rank_in_run[staged]);
  slot_of_staged[staged] = slot;
  slot_of_entry[tile * kTile + place_of_staged[staged]] = slot;
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

// build_transposed_products for tiles of kTile entries.
template <int kTile, class Ordinal, class Offset>
TransposedProducts<Ordinal, Offset> build_in_tiles(const Offset* row_map, const Ordinal* entries,
                                                   std::int64_t num_rows, std::int64_t num_entries,
                                                   const Offset* transposed_row_map,
                                                   const Offset* source_entry,
                                                   std::int64_t block_entries,
                                                   cudaStream_t stream) {
  TransposedProducts<Ordinal, Offset> p;
  if (num_entries == 0) return p;
  const auto n = static_cast<std::size_t>(num_entries);
  p.num_tiles = (num_entries + kTile - 1) / kTile;
  p.tile_first_row = DeviceBuffer<Ordinal>(static_cast<std::size_t>(p.num_tiles) + 1);
  tile_first_rows_kernel<kTile, Ordinal, Offset>
      <<<grid_for(p.num_tiles + 1, kThreads), kThreads, 0, stream>>>(row_map, num_rows, p.num_tiles,
                                                                     p.tile_first_row.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());

  // Slots in order of block, then of A's entries: a block's run in a tile starts after the same
  // block's runs in the tiles before and all the earlier blocks' (an exclusive scan of the tiles'
  // counts, block-major), and its places follow A's order.
  using Key = std::make_unsigned_t<Offset>;
  const std::int64_t num_blocks = (num_entries - 1) / block_entries + 1;
  // About n^2 / (block_entries x kTile) counts: fewer than the entries up to 2^30 of them.
  const auto num_counts = static_cast<std::size_t>(num_blocks * p.num_tiles);
  std::size_t scratch_bytes = 0;
  unsigned char* scratch = nullptr;
  Offset* counts = nullptr;
  Offset* first_slots = nullptr;
  Key* block_of_staged = nullptr;
  Offset* slot_of_entry = nullptr;
  std::uint16_t* place_of_staged = nullptr;
  std::uint16_t* rank_in_run = nullptr;
  KSPMV_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, counts, first_slots,
                                                 num_counts, stream));
  const DeviceBuffer<unsigned char> temporaries = allocate_parts([&](PartCarver& carve) {
    carve(scratch, scratch_bytes);
    carve(counts, num_counts);
    carve(first_slots, num_counts);
    carve(block_of_staged, n);
    carve(slot_of_entry, n);
    carve(place_of_staged, n);
    carve(rank_in_run, n);
  });
  KSPMV_CUDA_CHECK(cudaMemsetAsync(counts, 0, num_counts * sizeof(Offset), stream));
  p.staged_position = DeviceBuffer<std::uint16_t>(n);
  p.slot_of_staged = DeviceBuffer<Offset>(n);
  stage_tile_runs_kernel<kTile, Ordinal, Offset>
      <<<static_cast<unsigned>(p.num_tiles), kTileThreads, 0, stream>>>(
          entries, transposed_row_map, num_entries, p.num_tiles, block_entries,
          significant_bits(num_blocks), p.staged_position.data(), block_of_staged, place_of_staged,
          rank_in_run, counts);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  KSPMV_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, scratch_bytes, counts, first_slots,
                                                 num_counts, stream));
  staged_slots_kernel<kTile, Offset><<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(
      block_of_staged, place_of_staged, rank_in_run, first_slots, num_entries, p.num_tiles,
      p.slot_of_staged.data(), slot_of_entry);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  p.slot_of_transposed_entry = DeviceBuffer<Offset>(n);
  gather_kernel<<<grid_for(num_entries, kThreads), kThreads, 0, stream>>>(
      slot_of_entry, source_entry, p.slot_of_transposed_entry.data(), num_entries);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  // The temporaries are freed on return: wait until the device is done with them.
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return p;
}

}  // namespace

template <class Ordinal, class Offset>
TransposedProducts<Ordinal, Offset> build_transposed_products(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_entries,
    const Offset* transposed_row_map, const Offset* source_entry, std::int64_t block_entries,
    int tile_entries, cudaStream_t stream) {
  const auto build = tile_entries == 2048 ? build_in_tiles<2048, Ordinal, Offset>
                                          : build_in_tiles<1024, Ordinal, Offset>;
  return build(row_map, entries, num_rows, num_entries, transposed_row_map, source_entry,
               block_entries, stream);
}

#define KSPMV_INSTANTIATE_TRANSPOSED_PRODUCTS(ORDINAL, OFFSET)                                 \
  template TransposedProducts<ORDINAL, OFFSET> build_transposed_products<ORDINAL, OFFSET>(     \
      const OFFSET*, const ORDINAL*, std::int64_t, std::int64_t, const OFFSET*, const OFFSET*, \
      std::int64_t, int, cudaStream_t);
KSPMV_FOR_EACH_INDEX_PAIR(KSPMV_INSTANTIATE_TRANSPOSED_PRODUCTS)
#undef KSPMV_INSTANTIATE_TRANSPOSED_PRODUCTS

}  // namespace kspmv::cuda::detail
