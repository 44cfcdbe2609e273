#pragma once
// What every call of the raw-pointer API does around its kernels, planned or not: check op(A)'s
// shape against x and y, finish the calls that need no product, and launch the kernels for each
// group of vectors.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_check.hpp"
#include "device_scalar.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/errors.hpp"
#include "kspmv/mode.hpp"
#include "scale_kernel.cuh"
#include "spmv_arguments.cuh"
#include "vector_pack.cuh"

namespace kspmv::cuda::detail {

inline unsigned grid_for(std::int64_t threads, int block_threads) {
  return static_cast<unsigned>((threads + block_threads - 1) / block_threads);
}

inline std::string shape_string(std::int64_t rows, std::int64_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// Throws kspmv::dimension_mismatch for negative sizes, kspmv::malformed_matrix for a missing array.
template <class Scalar, class Ordinal, class Offset>
void check_matrix(const char* caller, const CsrMatrix<Scalar, Ordinal, Offset>& A) {
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto cols = static_cast<std::int64_t>(A.num_cols);
  const auto entries = static_cast<std::int64_t>(A.num_entries);
  if (rows < 0 || cols < 0 || entries < 0) {
    throw dimension_mismatch(std::string(caller) + ": negative size (" + shape_string(rows, cols) +
                             ", " + std::to_string(entries) + " entries)");
  }
  if ((rows > 0 && A.row_map == nullptr) ||
      (entries > 0 && (A.entries == nullptr || A.values == nullptr))) {
    throw malformed_matrix(std::string(caller) + ": a " + shape_string(rows, cols) +
                           " matrix with " + std::to_string(entries) +
                           " entries has a null row map, entries or values array");
  }
}

// Throws kspmv::unsupported_argument unless `array` is aligned to its element's size, which
// complex arrays must be (as cuSPARSE requires; Kokkos::complex always is): the kernels read a
// complex value with one vector load.
template <class Scalar>
void check_aligned(const char* caller, const char* name, const Scalar* array) {
  constexpr auto alignment = alignof(device_t<Scalar>);
  if (reinterpret_cast<std::uintptr_t>(array) % alignment != 0) {
    throw unsupported_argument(std::string(caller) + ": " + name + " is not aligned to " +
                               std::to_string(alignment) +
                               " bytes (arrays of complex values must be aligned to their size)");
  }
}

// Throws kspmv::dimension_mismatch, naming `caller` and every shape, unless x and y fit op(A), and
// kspmv::unsupported_argument for a misaligned array of values.
template <class MatrixScalar, class Scalar, class Ordinal, class Offset>
void check_call_operands(const char* caller, Mode mode,
                         const CsrMatrix<MatrixScalar, Ordinal, Offset>& A,
                         const DenseBlock<const Scalar>& x, const DenseBlock<Scalar>& y) {
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto cols = static_cast<std::int64_t>(A.num_cols);
  const bool transposed = is_transposed(mode);
  const std::int64_t out_rows = transposed ? cols : rows;
  const std::int64_t in_rows = transposed ? rows : cols;
  if (x.num_rows != in_rows || y.num_rows != out_rows || x.num_vectors != y.num_vectors) {
    throw dimension_mismatch(std::string(caller) + ": op(A) (mode " + to_string(mode) + ") is " +
                             shape_string(out_rows, in_rows) + ", x is " +
                             shape_string(x.num_rows, x.num_vectors) + ", y is " +
                             shape_string(y.num_rows, y.num_vectors));
  }
  check_aligned(caller, "A's values", A.values);
  check_aligned(caller, "x", x.data);
  check_aligned(caller, "y", y.data);
}

// Finishes the calls whose result needs no product (y empty: nothing; alpha == 0 or A empty: y =
// beta*y, reading neither A nor x) and returns false for them; true when the kernels must run.
template <class MatrixScalar, class Scalar, class Ordinal, class Offset>
bool product_needed(const CsrMatrix<MatrixScalar, Ordinal, Offset>& A, Scalar alpha,
                    const DenseBlock<Scalar>& y, Scalar beta, cudaStream_t stream) {
  if (y.num_rows == 0 || y.num_vectors == 0) return false;
  if (alpha != Scalar(0) && A.num_entries != 0) return true;
  constexpr int kThreads = 256;
  for (std::int64_t j = 0; j < y.num_vectors; ++j) {
    scale_kernel<<<grid_for(y.num_rows, kThreads), kThreads, 0, stream>>>(
        to_device(y.data) + j * y.col_stride, y.num_rows, y.row_stride, to_device(beta),
        beta == Scalar(0));
    KSPMV_CUDA_CHECK(cudaGetLastError());
  }
  return false;
}

// The most vectors one launch multiplies: a warp, one vector (or one pack) per lane
// (vector_group_kernel.cuh keeps a pack's sums per thread whatever the width, so wider groups cost
// no registers).
inline constexpr int kMaxVectorsPerLaunch = 32;

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
// count is 1, else with VectorGroupArguments<Width> for the smallest Width that holds them, whose
// lanes read as many vectors of x at once as a load holds where reads_x_in_packs allows.
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
        launch(
            VectorGroupArguments<Width, Single, kPack>{single, x_col_stride, y_col_stride, count});
        return;
      }
    }
    launch(VectorGroupArguments<Width, Single>{single, x_col_stride, y_col_stride, count});
  } else {
    launch(single);
  }
}

// `launch(args)` for every vector of x and y, in groups of up to `vectors_per_pass` that read A
// once each, a vector left over alone; args describe the CSR arrays given (A's own, or A^T's
// structure with A's values gathered through value_positions; the values may be MatrixScalar, the
// single precision counterpart of Scalar). MaxVectorsPerPass (default: the most a launch takes)
// caps the groups at compile time: 1 for a launch that only has single-vector kernels, and for
// columns read through the plan's compressed copy (Columns other than Own), which only
// single-vector kernels take.
template <bool GatheredValues, int MaxVectorsPerPass = 0, ColumnSource Columns = ColumnSource::Own,
          class Scalar, class MatrixScalar, class Ordinal, class Offset, class Launch>
void launch_per_vector(std::int64_t num_rows, const Offset* row_map, const Ordinal* entries,
                       const MatrixScalar* values, const Offset* value_positions, Mode mode,
                       Scalar alpha, const DenseBlock<const Scalar>& x, Scalar beta,
                       const DenseBlock<Scalar>& y, int vectors_per_pass, Launch&& launch,
                       CompressedColumns compressed = {}) {
  static_assert(Columns == ColumnSource::Own || MaxVectorsPerPass == 1);
  using T = device_t<Scalar>;
  constexpr int kMaxWidth = MaxVectorsPerPass > 0 ? MaxVectorsPerPass : kMaxVectorsPerLaunch;
  const std::int64_t per_pass = std::clamp(vectors_per_pass, 1, kMaxWidth);
  for (std::int64_t first = 0; first < y.num_vectors;) {
    const auto count = static_cast<int>(std::min(per_pass, y.num_vectors - first));
    const SpmvArguments<T, Ordinal, Offset, GatheredValues, device_t<MatrixScalar>, Columns> single{
        num_rows,
        row_map,
        entries,
        to_device(values),
        to_device(x.data) + first * x.col_stride,
        x.row_stride,
        to_device(y.data) + first * y.col_stride,
        y.row_stride,
        to_device(alpha),
        to_device(beta),
        beta == Scalar(0),
        is_conjugated(mode),
        value_positions,
        arrays_of<Columns>(compressed)};
    launch_group<kMaxWidth>(single, x.col_stride, y.col_stride, count, launch);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    first += count;
  }
}

}  // namespace kspmv::cuda::detail
