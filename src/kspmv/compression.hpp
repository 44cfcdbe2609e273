#pragma once
// Whether a plan may keep a compressed copy of A's column indices, and which (on Kokkos::Cuda and
// the CUDA raw API, read by the Vector and Scalar kernels in one-vector calls): a dictionary of the
// rows' repeated patterns with 16 bits a row naming each row's
// (backends/cuda/src/formats/row_patterns.cuh), or 16 bits an entry, its distance from its row
// (column_deltas.cuh). Rows the copy cannot hold read A's own columns. The choice never changes a
// result: the kernels read the same columns and sum in the same order. Kokkos-free.

#include <string>

namespace kspmv {

enum class Compression {
  Auto,          // the form the plan's analysis finds saves enough bytes per call, or none
  RowPatterns,   // the dictionary of row patterns whenever sampled rows repeat and the limit allows
  ColumnDeltas,  // 16 bits an entry whenever the workspace limit allows
  Never,
};

inline std::string to_string(Compression compression) {
  switch (compression) {
    case Compression::Auto:
      return "Auto";
    case Compression::RowPatterns:
      return "RowPatterns";
    case Compression::ColumnDeltas:
      return "ColumnDeltas";
    case Compression::Never:
      return "Never";
  }
  return "unknown Compression (" + std::to_string(static_cast<int>(compression)) + ")";
}

}  // namespace kspmv
