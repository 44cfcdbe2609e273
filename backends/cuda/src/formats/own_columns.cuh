#pragma once
// What a kernel that knows an entry's row asks of the columns it reads (SpmvArguments'
// row_columns / compressed_column): A's own array here, a compressed form in the files beside it.
// Each form is one type with a device view `Arrays` that answers the same two questions.

#include <cstdint>

#include "formats/column_form.hpp"

namespace kspmv::cuda::detail {

// Whether a row's columns are read from a compressed form (not escaped to A's own), and from where
// (a form's own offset for the row: RowPatterns' distances start at distances + base + begin).
struct RowColumns {
  bool compressed;
  std::int64_t base;
};

struct OwnColumns {
  static constexpr ColumnForm kForm = ColumnForm::Own;
  static constexpr bool kCompressed = false;
  static constexpr bool kReadsColumns = true;
  static constexpr bool kColumnsFromCache = false;
  static constexpr bool kBoundedVectorKernel = false;
  // Two unused pointers: a kernel's parameters keep the layout of a compressed form's, and with it
  // their registers (with both forms' arrays the one-vector fp32_fp64 Vector kernel on deltas took
  // 44 registers instead of 32; DR-24).
  struct Arrays {
    const void* unused[2] = {nullptr, nullptr};

    __device__ RowColumns row_columns(std::int64_t, std::int64_t) const { return {false, 0}; }
    template <class Ordinal>
    __device__ Ordinal column(std::int64_t, std::int64_t, std::int64_t) const {
      return Ordinal{};  // never asked: no row is compressed
    }
  };
};

}  // namespace kspmv::cuda::detail
