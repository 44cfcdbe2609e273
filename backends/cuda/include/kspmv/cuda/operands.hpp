#pragma once
// Non-owning descriptions of device arrays: the raw-pointer API's vocabulary. No Kokkos here.

#include <cstdint>

namespace kspmv::cuda {

// A CSR matrix in device memory. Rows [row_map[i], row_map[i+1]) of entries/values.
template <class Scalar, class Ordinal, class Offset>
struct CsrMatrix {
  Ordinal num_rows = 0;
  Ordinal num_cols = 0;
  Offset num_entries = 0;            // == row_map[num_rows]; known on the host
  const Offset* row_map = nullptr;   // num_rows + 1
  const Ordinal* entries = nullptr;  // num_entries column indices
  const Scalar* values = nullptr;    // num_entries
};

// A dense block of k vectors in device memory: element (i, j) is data[i*row_stride + j*col_stride].
// Covers rank-1 (num_vectors == 1), LayoutLeft, LayoutRight and strided subviews alike.
template <class Scalar>
struct DenseBlock {
  Scalar* data = nullptr;
  std::int64_t num_rows = 0;
  std::int64_t num_vectors = 1;
  std::int64_t row_stride = 1;
  std::int64_t col_stride = 0;
};

}  // namespace kspmv::cuda
