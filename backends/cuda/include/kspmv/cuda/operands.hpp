#pragma once
/// @file
/// Non-owning descriptions of device arrays: the raw-pointer API's vocabulary (kspmv::cuda::Plan).
/// No Kokkos here.

#include <cstdint>

namespace kspmv::cuda {

/// A CSR matrix in device memory: row i holds the entries [row_map[i], row_map[i+1]) of entries
/// and values. Describes arrays the caller owns; nothing is copied, and the arrays must stay valid
/// while calls that receive the description run on their stream.
/// @tparam Scalar the type of the values.
/// @tparam Ordinal the type of column indices and of the row and column counts.
/// @tparam Offset the type of the row offsets.
template <class Scalar, class Ordinal, class Offset>
struct CsrMatrix {
  Ordinal num_rows = 0;              ///< The number of rows.
  Ordinal num_cols = 0;              ///< The number of columns.
  Offset num_entries = 0;            ///< == row_map[num_rows]; known on the host.
  const Offset* row_map = nullptr;   ///< num_rows + 1 row offsets, in device memory.
  const Ordinal* entries = nullptr;  ///< num_entries column indices, in device memory.
  const Scalar* values = nullptr;    ///< num_entries values, in device memory.
};

/// A dense block of k vectors in device memory: element (i, j) is
/// data[i*row_stride + j*col_stride], strides counted in elements. Covers rank-1 (num_vectors ==
/// 1), LayoutLeft, LayoutRight and strided subviews alike. Describes an array the caller owns.
/// @tparam Scalar the type of the elements: const for an operand that is only read (x).
template <class Scalar>
struct DenseBlock {
  Scalar* data = nullptr;        ///< Element (0, 0), in device memory.
  std::int64_t num_rows = 0;     ///< The length of each vector.
  std::int64_t num_vectors = 1;  ///< k, the number of vectors (columns of the block).
  std::int64_t row_stride = 1;   ///< Elements from (i, j) to (i + 1, j).
  std::int64_t col_stride = 0;   ///< Elements from (i, j) to (i, j + 1); unused for one vector.
};

}  // namespace kspmv::cuda
