#pragma once
// Transposed products: A^T x summed along A^T's rows from A's products, for matrices whose A^T's
// rows would gather A's values and x from all over DRAM. Two launches a call. The first reads A in
// its own order, a tile of entries a block (kernels/tile_rows.cuh), and writes each product
// op(a(i, j)) x(i) to the entry's slot; the second is the plan of A^T's rows over the products,
// each read through its slot and summed along its row, no column read (formats/no_columns.cuh). The
// slots group the products by blocks of A^T's rows (whole rows, about `block_entries` entries a
// block), in A's order within a block, so that the second launch reads a block's products from one
// small region that L2 holds while its rows are summed: on random columns a fraction of the bytes a
// nonzero of A^T's rows gathering A's values and x (DR-42). The first launch's stores still
// scatter, a block a product on random columns (sectors leave L2 partly written there): the
// products pay where they also save x's gathers, x too large for L2.
//
// Built on the device from A's structure and A^T's (transposed/transposed_structure.hpp): the
// values may change between calls.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/device_buffer.hpp"

namespace kspmv::cuda::detail {

template <class Ordinal, class Offset>
struct TransposedProducts {
  std::int64_t num_tiles = 0;            // of A's entries, for the first launch
  DeviceBuffer<Ordinal> tile_first_row;  // num_tiles + 1: the row of each tile's first entry
  // The first launch orders a tile's products by slot in shared memory before it writes them, so
  // that the products of one block of A^T's rows, a run of consecutive slots, leave in one piece:
  // per entry of A, its place in its tile in slot order, and per such place, its slot.
  DeviceBuffer<std::uint16_t> staged_position;
  DeviceBuffer<Offset> slot_of_staged;
  DeviceBuffer<Offset> slot_of_transposed_entry;  // per entry of A^T, where its product is
};

// Entries a block of the first launch reads, with 4 bytes each of shared memory for their rows
// beside their products: 2048 of 4 or 8 bytes (24 KB at most), 1024 of 16 (20 KB; 2048 took 40 KB
// and held the launch to half fp64's occupancy in complex double, DR-45). A place in a tile fits 16
// bits.
template <class DeviceValue>
constexpr int transposed_products_tile_entries() {
  return sizeof(DeviceValue) > 8 ? 1024 : 2048;
}

// The slots of A's entries, in order of the block of A^T's rows that holds each (where its
// column's row of A^T starts, over block_entries), then of A's order: each tile's entries sorted
// by block in shared memory (tiles of `tile_entries`, 1024 or 2048, as the first launch reads
// them) give their places and each block's count in the tile; the counts scanned block by block
// give where each tile's run of each block starts. transposed_row_map and source_entry: A^T's
// structure. Waits for the stream.
template <class Ordinal, class Offset>
TransposedProducts<Ordinal, Offset> build_transposed_products(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_entries,
    const Offset* transposed_row_map, const Offset* source_entry, std::int64_t block_entries,
    int tile_entries, cudaStream_t stream);

}  // namespace kspmv::cuda::detail
