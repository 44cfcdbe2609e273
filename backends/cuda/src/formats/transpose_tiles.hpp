#pragma once
// Transpose tiles: A^T x computed from A's entries in A's own order, deterministically, without
// A^T's structure. A's entries are cut into tiles of `tile_entries` consecutive entries; within a
// tile, the entries of one column form a run. A call reads each tile's values once, in order, and
// sums each run's products into one partial (tile_partials_kernel), then sums each column's
// partials in tile order into y (column_sums_kernel). Bytes a nonzero: the value, a 16-bit
// position, and about 22 for each run, so the tiles pay where a tile holds few columns many times
// (tall and skinny matrices, local structure): runs / entries is the plan's measure (DR-29).
//
// Built on the device from A's structure alone: values may change between calls.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/device_buffer.hpp"

namespace kspmv::cuda::detail {

template <class Ordinal, class Offset>
struct TransposeTiles {
  int tile_entries = 0;
  std::int64_t num_tiles = 0;
  std::int64_t num_runs = 0;
  DeviceBuffer<std::uint16_t> order;     // per tile, its positions sorted by column (stably)
  DeviceBuffer<std::uint16_t> run_ends;  // per run, where its slice of `order` ends in its tile
  DeviceBuffer<Offset> tile_runs;        // num_tiles + 1: each tile's first run
  DeviceBuffer<Ordinal> tile_first_row;  // num_tiles + 1: the row of each tile's first entry
  DeviceBuffer<Offset> run_slot;         // per run, its partial's place in column order
  DeviceBuffer<Offset> column_slots;     // num_cols + 1: each column's first partial
  int column_lanes = 1;                  // threads that sum one column's partials
  bool runs_sampled = false;             // num_runs scaled from a sample of tiles (then declined)

  double runs_per_entry(std::int64_t num_entries) const {
    return num_entries == 0 ? 0.0
                            : static_cast<double>(num_runs) / static_cast<double>(num_entries);
  }
};

// A tile's partials are summed from shared memory: 2048 entries for values of 8 or 16 bytes,
// 4096 for 4 (under 48 KB of shared memory a block with the rows and positions beside them).
template <class DeviceValue>
constexpr int transpose_tile_entries() {
  return sizeof(DeviceValue) >= 8 ? 2048 : 4096;
}

// The tiles of A (rows in increasing order of entry, as CSR stores them). Waits for the stream.
// Returns only the run count, with nothing else allocated, where runs / entries exceeds
// `most_runs_per_entry` (then the tiles would not pay); that count is estimated from a sample of
// tiles where the sample alone exceeds it clearly.
template <class Ordinal, class Offset>
TransposeTiles<Ordinal, Offset> build_transpose_tiles(const Offset* row_map, const Ordinal* entries,
                                                      std::int64_t num_rows, std::int64_t num_cols,
                                                      std::int64_t num_entries, int tile_entries,
                                                      double most_runs_per_entry,
                                                      cudaStream_t stream);

}  // namespace kspmv::cuda::detail
