#pragma once
// The transpose tiles (TransposedFormId::Tiles; formats/transpose_tiles.hpp): A read in its own
// order, a tile at a time, each tile's entries sorted by column into runs whose partials are then
// summed a column at a time into y, one vector at a time. No A^T is built (DR-29, DR-39).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "formats/transpose_tiles.hpp"
#include "kernels/transpose_tiles_kernels.cuh"
#include "plan/rows_plan.cuh"
#include "plan/tuning.hpp"
#include "transposed/tile_read.cuh"

namespace kspmv::cuda::detail {

// "0.123": column runs an entry, as describe() reports them.
inline std::string runs_per_entry_text(double runs_per_entry) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", runs_per_entry);
  return text;
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedTilesForm {
 public:
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Tiles = TransposeTiles<Ordinal, Offset>;

  // Tiles that the trial built and kept (a non-empty order), and their partials' buffer.
  TransposedTilesForm(Tiles tiles, double runs_per_entry)
      : tiles_(std::move(tiles)),
        runs_per_entry_(runs_per_entry),
        partials_(static_cast<std::size_t>(tiles_.num_runs)) {}

  // op(A) x, a vector at a time: each run's partial, then each column's sum.
  void multiply(const APlan& a_plan, const MatrixScalar* a_values, const CallOperands<Scalar>& call,
                cudaStream_t stream) const {
    using T = device_t<Scalar>;
    using V = device_t<MatrixScalar>;
    constexpr int kTile = transpose_tile_entries<T>();
    const Tiles& t = tiles_;
    const auto num_cols = static_cast<std::int64_t>(call.y.num_rows);
    for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
      const TilePartialsArguments<T, V, Ordinal, Offset> args{
          tile_read_arguments(a_plan.matrix().row_map, a_plan.num_entries(), a_values, call, j,
                              t.tile_first_row.data()),
          t.order.data(),
          t.run_ends.data(),
          t.tile_runs.data(),
          t.run_slot.data(),
          partials_.data()};
      tile_partials_kernel<kTile>
          <<<static_cast<unsigned>(t.num_tiles), kTileThreads, 0, stream>>>(args);
      KSPMV_CUDA_CHECK(cudaGetLastError());
      const auto sums = [&](auto lanes) {
        constexpr int kLanes = decltype(lanes)::value;
        column_sums_kernel<kLanes>
            <<<grid_for(num_cols * kLanes, kTileThreads), kTileThreads, 0, stream>>>(
                t.column_slots.data(), partials_.data(), num_cols, to_device(call.alpha),
                to_device(call.beta), call.beta == Scalar(0),
                to_device(call.y.data) + j * call.y.col_stride, call.y.row_stride);
      };
      if (t.column_lanes == 1) {
        sums(std::integral_constant<int, 1>{});
      } else if (t.column_lanes == 32) {
        sums(std::integral_constant<int, 32>{});
      } else {
        sums(std::integral_constant<int, kTileThreads>{});
      }
      KSPMV_CUDA_CHECK(cudaGetLastError());
    }
  }

  std::size_t bytes() const {
    const Tiles& t = tiles_;
    return (t.order.size() + t.run_ends.size()) * sizeof(std::uint16_t) +
           (t.tile_runs.size() + t.run_slot.size() + t.column_slots.size()) * sizeof(Offset) +
           t.tile_first_row.size() * sizeof(Ordinal) + partials_.size() * sizeof(device_t<Scalar>);
  }

  std::string describe() const {
    return "transpose tiles of " + std::to_string(tiles_.tile_entries) + " entries in A's order, " +
           std::to_string(tiles_.num_runs) + " column runs (" +
           runs_per_entry_text(runs_per_entry_) + " an entry)";
  }

 private:
  Tiles tiles_;
  double runs_per_entry_;
  DeviceBuffer<device_t<Scalar>> partials_;
};

}  // namespace kspmv::cuda::detail
