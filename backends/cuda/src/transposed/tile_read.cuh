#pragma once
// A and one vector of x as the first launch of the tiles and of the products reads them, tile by
// tile in A's own order.

#include <cstdint>

#include "device/device_scalar.cuh"
#include "kernels/tile_rows.cuh"
#include "kspmv/mode.hpp"
#include "plan/launch_per_vector.cuh"

namespace kspmv::cuda::detail {

template <class Scalar, class MatrixScalar, class Ordinal, class Offset>
TileReadArguments<device_t<Scalar>, device_t<MatrixScalar>, Ordinal, Offset> tile_read_arguments(
    const Offset* row_map, std::int64_t num_entries, const MatrixScalar* a_values,
    const CallOperands<Scalar>& call, std::int64_t vector, const Ordinal* tile_first_row) {
  return {row_map,           to_device(a_values),
          num_entries,       to_device(call.x.data) + vector * call.x.col_stride,
          call.x.row_stride, call.mode == Mode::ConjugateTranspose,
          tile_first_row};
}

}  // namespace kspmv::cuda::detail
