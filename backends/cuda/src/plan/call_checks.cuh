#pragma once
// What every call of the raw-pointer API does before its kernels, planned or not: check A, and
// op(A)'s shape against x and y, and finish the calls that need no product.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "device/device_scalar.cuh"
#include "kernels/scale_kernel.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/detail/overlap.hpp"
#include "kspmv/errors.hpp"
#include "kspmv/mode.hpp"

namespace kspmv::cuda::detail {

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
// kspmv::unsupported_argument where y shares an element with x or an array of values is
// misaligned.
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
  const auto block_of = [](const auto& b) {
    return kspmv::detail::Block{reinterpret_cast<std::uintptr_t>(b.data),
                                b.num_rows,
                                b.num_vectors,
                                b.row_stride,
                                b.col_stride,
                                static_cast<std::int64_t>(sizeof(Scalar))};
  };
  if (kspmv::detail::shares_an_element(block_of(x), block_of(y))) {
    throw unsupported_argument(kspmv::detail::overlap_message(caller));
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
  scale_vectors(y, beta, stream);
  return false;
}

}  // namespace kspmv::cuda::detail
