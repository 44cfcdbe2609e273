#pragma once
// The first launch of a call through the transposed products (formats/transposed_products.hpp):
// every product op(a(i, j)) x(i), A and x read in A's order, written to its entry's slot.

#include <cstdint>

#include "device/device_scalar.cuh"
#include "kernels/tile_rows.cuh"

namespace kspmv::cuda::detail {

// T: the vectors' device type, and the products'; V: the matrix values'.
template <class T, class V, class Ordinal, class Offset>
struct ScatterProductsArguments {
  const Offset* row_map;
  const V* values;
  std::int64_t num_entries;
  const T* x;  // one vector
  std::int64_t x_stride;
  bool conjugate;
  const Ordinal* tile_first_row;
  const Offset* slot_of_entry;
  T* products;
};

// One block a tile of kTile entries: each entry's row, then its product to its slot.
template <int kTile, class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    scatter_products_kernel(ScatterProductsArguments<T, V, Ordinal, Offset> a) {
  __shared__ typename TileRows<kTile>::TempStorage rows;
  const std::int64_t tile = blockIdx.x;
  const TileExtent extent = tile_extent<kTile>(tile, a.num_entries);
  const auto first_row = static_cast<std::int64_t>(a.tile_first_row[tile]);
  find_tile_rows<kTile>(a.row_map, extent, first_row,
                        static_cast<std::int64_t>(a.tile_first_row[tile + 1]), rows);
  for (int p = threadIdx.x; p < extent.length; p += kTileThreads) {
    const std::int64_t entry = extent.start + p;
    const T value = conjugate_if(widen<T>(load_streaming(a.values + entry)), a.conjugate);
    const auto slot = static_cast<std::int64_t>(load_streaming(a.slot_of_entry + entry));
    a.products[slot] = value * load_readonly(a.x + (first_row + rows.row_in_tile[p]) * a.x_stride);
  }
}

}  // namespace kspmv::cuda::detail
