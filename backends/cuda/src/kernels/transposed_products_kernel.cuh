#pragma once
// The first launch of a call through the transposed products (formats/transposed_products.hpp):
// every product op(a(i, j)) x(i), A and x read in A's order, written to its entry's slot, a tile's
// products in slot order.

#include <cstdint>

#include "device/device_scalar.cuh"
#include "kernels/tile_rows.cuh"

namespace kspmv::cuda::detail {

// T: the vectors' device type, and the products'.
template <class T, class V, class Ordinal, class Offset>
struct ScatterProductsArguments : TileReadArguments<T, V, Ordinal, Offset> {
  const std::uint16_t* staged_position;  // formats/transposed_products.hpp
  const Offset* slot_of_staged;
  T* products;
};

// One block a tile of kTile entries, kItems a thread: their values and places, each entry's row, x
// at the rows, the products to their places in shared memory, then, a place a lane, to their slots,
// so that consecutive lanes write consecutive slots within a block of A^T's rows. Each phase's
// loads go out together: in one loop of load, multiply and store per entry, the compiler could not
// move an entry's loads above the previous entry's store (the products might alias A or x), and the
// first version, so written, waited far longer on global loads between instructions; with the loads
// together the rest of the launch's time was the scattered stores (DR-42), which staging in slot
// order, into blocks of 2^20 entries, cut (DR-44).
template <int kTile, class T, class V, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    scatter_products_kernel(ScatterProductsArguments<T, V, Ordinal, Offset> a) {
  constexpr int kItems = kTile / kTileThreads;
  __shared__ typename TileRows<kTile>::TempStorage rows;
  const std::int64_t tile = blockIdx.x;
  const TileExtent extent = tile_extent<kTile>(tile, a.num_entries);
  const auto in_tile = [&](int i) { return static_cast<int>(threadIdx.x) + i * kTileThreads; };
  // The tile's products in slot order: raw storage, since T may be a class with constructors.
  __shared__ alignas(T) unsigned char staged_storage[kTile * sizeof(T)];
  T* staged = reinterpret_cast<T*>(staged_storage);
  V values[kItems] = {};
  std::uint16_t places[kItems] = {};
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (in_tile(i) < extent.length) {
      values[i] = load_streaming(a.values + extent.start + in_tile(i));
      places[i] = load_streaming(a.staged_position + extent.start + in_tile(i));
    }
  }
  const auto first_row = static_cast<std::int64_t>(a.tile_first_row[tile]);
  find_tile_rows<kTile>(a.row_map, extent, first_row,
                        static_cast<std::int64_t>(a.tile_first_row[tile + 1]), rows);
  T xs[kItems] = {};
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (in_tile(i) < extent.length) {
      xs[i] = load_readonly(a.x + (first_row + rows.row_in_tile[in_tile(i)]) * a.x_stride);
    }
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (in_tile(i) < extent.length) {
      staged[places[i]] = conjugate_if(widen<T>(values[i]), a.conjugate) * xs[i];
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (in_tile(i) < extent.length) {
      const auto slot = load_streaming(a.slot_of_staged + extent.start + in_tile(i));
      a.products[static_cast<std::int64_t>(slot)] = staged[in_tile(i)];
    }
  }
}

}  // namespace kspmv::cuda::detail
