#pragma once
/// @file
/// kspmv::TransposedForm: how a plan multiplies by op(A) = A^T or A^H (modes T and H) on
/// Kokkos::Cuda and the CUDA raw API, where A^T's pattern is not A's. The transpose tiles read A's
/// entries in A's own order, a tile of consecutive entries at a time, and sum each column's run of
/// products within a tile (backends/cuda/src/formats/transpose_tiles.hpp): two launches a call, no
/// A^T. A^T's rows are A^T's own structure, sorted once, with the plan of its rows (one launch a
/// call), which reads A's values through a permutation. The products read A in its own order and
/// write each product op(a(i, j)) x(i) where the plan of A^T's rows then sums them along A^T's
/// rows, near the other products of the same rows
/// (backends/cuda/src/formats/transposed_products.hpp): two launches a call. With determinism off,
/// atomic adds in A's order serve instead where y fits in L2, until the values are declared
/// constant. The tiles, the
/// products and A^T's rows each give the same bits on every run, though not the same bits as each
/// other (they add or round in other orders). Kokkos-free.

#include <string>

namespace kspmv {

/// How transposed calls (modes T and H) multiply where A's pattern is not symmetric
/// (kspmv::Handle::set_transposed_form, kspmv::cuda::PlanOptions::transposed_form); other backends
/// give what KokkosSparse::spmv gives.
enum class TransposedForm {
  /// A's plan where A's pattern is symmetric. Else, for Algorithm::Auto past the latency bound and
  /// where A^T has fewer rows than the GPU has warp slots, the tiles where a tile's entries fall in
  /// few column runs (at most one run in four entries). Else, for Algorithm::Auto past the latency
  /// bound, the products where the part of A's values that A^T's rows in flight gather from does
  /// not fit in half of L2 (columns far from the diagonal), those rows of A number more than
  /// 65,536 a byte of value (524,288 at most) and A's values have x's type; else A^T's rows (or the
  /// atomic adds). Below the latency bound the second launch costs more than the reads save; where
  /// A^T's rows fill the GPU, reading them costs less than the tiles; where A's values in A^T's
  /// order come from L2, or L2 keeps a sector of each row they gather from, less than the products.
  Auto,
  /// The tiles whenever A has entries and fewer than 2^31 rows, symmetric or not, whatever the
  /// algorithm.
  Tiles,
  /// Neither the tiles nor the products: A's plan where A's pattern is symmetric, else A^T's rows
  /// (or the atomic adds).
  Rows,
  /// The products whenever A's values have x's type, symmetric or not, whatever the algorithm and
  /// determinism; else as Rows.
  Products,
};

/// The name of a transposed form, as describe() prints it.
/// @param form the form to name.
/// @return its enumerator's name ("Auto", "Tiles", "Rows", "Products"), or
///   "unknown TransposedForm (N)" for a value outside the enumeration.
inline std::string to_string(TransposedForm form) {
  switch (form) {
    case TransposedForm::Auto:
      return "Auto";
    case TransposedForm::Tiles:
      return "Tiles";
    case TransposedForm::Rows:
      return "Rows";
    case TransposedForm::Products:
      return "Products";
  }
  return "unknown TransposedForm (" + std::to_string(static_cast<int>(form)) + ")";
}

}  // namespace kspmv
