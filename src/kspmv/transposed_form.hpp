#pragma once
// How a plan multiplies by op(A) = A^T or A^H (modes T and H) on Kokkos::Cuda and the CUDA raw
// API, where A^T's pattern is not A's. The transpose tiles read A's entries in A's own order, a
// tile of consecutive entries at a time, and sum each column's run of products within a tile
// (backends/cuda/src/formats/transpose_tiles.hpp): two launches a call, no A^T. A^T's rows are
// A^T's own structure, sorted once, with the plan of its rows (one launch a call); with
// determinism off, atomic adds in A's order serve instead until the values are declared constant.
// The tiles and A^T's rows give the same bits on every run, though not the same bits as each other
// (they add in other orders). Kokkos-free.

#include <string>

namespace kspmv {

enum class TransposedForm {
  // A's plan where A's pattern is symmetric. Else, for Algorithm::Auto past the latency bound and
  // where A^T has fewer rows than the GPU has warp slots, the tiles where a tile's entries fall in
  // few column runs (at most one run in four entries); else A^T's rows (or the atomic adds). Below
  // the latency bound the tiles' second launch costs more than their reads save; where A^T's rows
  // fill the GPU, reading them costs less than the tiles.
  Auto,
  // The tiles whenever A has entries and fewer than 2^31 rows, symmetric or not, whatever the
  // algorithm.
  Tiles,
  // Never the tiles: A's plan where A's pattern is symmetric, else A^T's rows (or the atomic adds).
  Rows,
};

inline std::string to_string(TransposedForm form) {
  switch (form) {
    case TransposedForm::Auto:
      return "Auto";
    case TransposedForm::Tiles:
      return "Tiles";
    case TransposedForm::Rows:
      return "Rows";
  }
  return "unknown TransposedForm (" + std::to_string(static_cast<int>(form)) + ")";
}

}  // namespace kspmv
