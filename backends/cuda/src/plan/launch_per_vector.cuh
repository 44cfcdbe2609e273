#pragma once
// Launching a kernel for every vector of a call: the vectors in groups that read A once each, each
// group described to the kernels by one argument bundle (spmv_arguments.cuh).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "device/cuda_check.hpp"
#include "device/device_scalar.cuh"
#include "device/vector_pack.cuh"
#include "formats/own_columns.cuh"
#include "kernels/spmv_arguments.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

// The CSR rows a launch multiplies: A's own, or A^T's structure with A's values gathered through
// value_positions (a GatheredValues launch); the values may be the single precision counterpart
// of the call's scalar type.
template <class MatrixScalar, class Ordinal, class Offset>
struct RowsView {
  std::int64_t num_rows;
  const Offset* row_map;
  const Ordinal* entries;
  const MatrixScalar* values;
  const Offset* value_positions = nullptr;
};

// One call's operands: y = beta*y + alpha*op(A)*x (mode: conjugation; the plan has already chosen
// the rows that op(A) means).
template <class Scalar>
struct CallOperands {
  Mode mode;
  Scalar alpha;
  DenseBlock<const Scalar> x;
  Scalar beta;
  DenseBlock<Scalar> y;
};

// Whether a lane may read `pack` of the `count` vectors of x at once: x's rows contiguous, every
// row's first element aligned to the pack's bytes, and the count whole packs (so that no load
// reaches past the vectors asked for).
template <int Pack, class Single>
bool reads_x_in_packs(const Single& single, std::int64_t x_col_stride, int count) {
  using T = typename Single::value_type;
  const auto address = reinterpret_cast<std::uintptr_t>(single.x);
  return x_col_stride == 1 && count % Pack == 0 && single.x_stride % Pack == 0 &&
         address % (Pack * sizeof(T)) == 0;
}

// Calls launch(args) for the vectors [first, first + count) of x and y: with SpmvArguments when
// count is 1, else with VectorGroupArguments<Width> for the smallest Width that holds them. Where
// x's rows are contiguous its lanes multiply as many vectors as a load holds, read at once where
// reads_x_in_packs allows and apart otherwise, so that a row's lanes, and the slots a group of
// them holds, never depend on x's alignment; where they are not, one vector a lane.
template <int Width, class Single, class Launch>
void launch_group(const Single& single, std::int64_t x_col_stride, std::int64_t y_col_stride,
                  int count, Launch&& launch) {
  if constexpr (Width > 1) {
    if (count <= Width / 2) {
      launch_group<Width / 2>(single, x_col_stride, y_col_stride, count, launch);
      return;
    }
    constexpr int kPack = pack_for_width<typename Single::value_type>(Width);
    if constexpr (kPack > 1) {
      if (reads_x_in_packs<kPack>(single, x_col_stride, count)) {
        launch(VectorGroupArguments<Width, Single, kPack, PackLoads::Together>{
            single, x_col_stride, y_col_stride, count});
        return;
      }
      if (x_col_stride == 1) {
        launch(VectorGroupArguments<Width, Single, kPack, PackLoads::Apart>{single, x_col_stride,
                                                                            y_col_stride, count});
        return;
      }
    }
    launch(VectorGroupArguments<Width, Single>{single, x_col_stride, y_col_stride, count});
  } else {
    launch(single);
  }
}

// `launch(args)` for every vector of the call, in groups of up to `vectors_per_pass` that read
// A once each, a vector left over alone. MaxVectorsPerPass (default: the most a launch takes) caps
// the groups at compile time: 1 for a launch that only has single-vector kernels, and for columns
// read through a compressed form (Columns other than OwnColumns, `compressed` its arrays), which
// only single-vector kernels take.
template <bool GatheredValues, int MaxVectorsPerPass = 0, class Columns = OwnColumns, class Scalar,
          class MatrixScalar, class Ordinal, class Offset, class Launch>
void launch_per_vector(const RowsView<MatrixScalar, Ordinal, Offset>& rows,
                       const CallOperands<Scalar>& call, int vectors_per_pass, Launch&& launch,
                       typename Columns::Arrays compressed = {}) {
  static_assert(Columns::kForm == ColumnForm::Own || MaxVectorsPerPass == 1);
  using T = device_t<Scalar>;
  constexpr int kMaxWidth = MaxVectorsPerPass > 0 ? MaxVectorsPerPass : kMaxVectorsPerLaunch;
  const std::int64_t per_pass = std::clamp(vectors_per_pass, 1, kMaxWidth);
  const auto& x = call.x;
  const auto& y = call.y;
  for (std::int64_t first = 0; first < y.num_vectors;) {
    const auto count = static_cast<int>(std::min(per_pass, y.num_vectors - first));
    const SpmvArguments<T, Ordinal, Offset, GatheredValues, device_t<MatrixScalar>, Columns> single{
        rows.num_rows,
        rows.row_map,
        rows.entries,
        to_device(rows.values),
        to_device(x.data) + first * x.col_stride,
        x.row_stride,
        to_device(y.data) + first * y.col_stride,
        y.row_stride,
        to_device(call.alpha),
        to_device(call.beta),
        call.beta == Scalar(0),
        is_conjugated(call.mode),
        rows.value_positions,
        compressed};
    launch_group<kMaxWidth>(single, x.col_stride, y.col_stride, count, launch);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    first += count;
  }
}

}  // namespace kspmv::cuda::detail
