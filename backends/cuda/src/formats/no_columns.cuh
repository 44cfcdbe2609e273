#pragma once
// Rows whose every entry multiplies one: a kernel reading them reads no column and no x, and sums
// each row's values. The transposed products' second launch (formats/transposed_products.hpp) sums
// A's products along A^T's rows this way; with A^T's own columns and a vector of ones it read 4
// bytes a nonzero more and made a load of x wait for each of them.

#include "formats/own_columns.cuh"

namespace kspmv::cuda::detail {

struct NoColumns {
  static constexpr ColumnForm kForm = ColumnForm::Own;  // no compressed path: rows read as A's own
  static constexpr bool kCompressed = false;
  static constexpr bool kReadsColumns = false;
  static constexpr bool kColumnsFromCache = false;
  static constexpr bool kBoundedVectorKernel = false;
  using Arrays = OwnColumns::Arrays;
};

}  // namespace kspmv::cuda::detail
