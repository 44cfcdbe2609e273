#pragma once
/// @file
/// kspmv::Compression: whether a plan may keep a compressed copy of A's column indices, and which
/// (on Kokkos::Cuda and the CUDA raw API, read by the Vector and Scalar kernels in one-vector
/// calls): a dictionary of the rows' repeated patterns with 16 bits a row naming each row's
/// (backends/cuda/src/formats/row_patterns.cuh), or 16 bits an entry, its distance from its row
/// (column_deltas.cuh). Rows the copy cannot hold read A's own columns. The choice never changes a
/// result: the kernels read the same columns and sum in the same order. Kokkos-free.

#include <string>

namespace kspmv {

/// Which compressed copy of A's column indices a plan may keep (kspmv::Handle::set_compression,
/// kspmv::cuda::PlanOptions::compression); other backends keep none. The copy counts in
/// workspace_bytes() and is made only within the workspace limit. Bitwise the same results
/// whichever is chosen.
enum class Compression {
  Auto,  ///< The form the plan's analysis finds saves enough bytes per call, or none.
  /// The dictionary of row patterns whenever sampled rows repeat and the workspace limit allows.
  RowPatterns,
  ColumnDeltas,  ///< 16 bits an entry whenever the workspace limit allows.
  Never,         ///< No compressed copy: calls read A's own column indices.
};

/// The name of a compression setting, as describe() prints it.
/// @param compression the setting to name.
/// @return its enumerator's name ("Auto", "RowPatterns", "ColumnDeltas", "Never"), or
///   "unknown Compression (N)" for a value outside the enumeration.
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
