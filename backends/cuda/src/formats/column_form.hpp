#pragma once
// The forms in which a plan may read A's column indices, named for the host: A's own array, or one
// of the compressed copies in this folder (one file each). Plain C++: Auto's choice (choice.hpp)
// weighs them without a CUDA header. A new form is a file here, a value below, its name, one rule
// in choice.cpp and one line in plan/compressed_columns.cuh's dispatch.

#include <cstdint>

namespace kspmv::cuda::detail {

enum class ColumnForm {
  Own,           // A's own column indices
  RowPatterns,   // row_patterns.cuh: 16 bits a row naming a pattern of a small dictionary
  ColumnDeltas,  // column_deltas.cuh: 16 bits an entry, its distance from its row
};

inline const char* form_name(ColumnForm form) {
  switch (form) {
    case ColumnForm::RowPatterns:
      return "row patterns";
    case ColumnForm::ColumnDeltas:
      return "16-bit deltas";
    case ColumnForm::Own:
      break;
  }
  return "A's own";
}

// The farthest a 16-bit delta reaches from its row.
inline constexpr std::int64_t kDeltaReach = 32767;

}  // namespace kspmv::cuda::detail
