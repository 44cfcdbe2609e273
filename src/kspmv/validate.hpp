#pragma once
// kspmv::validate(A): checks the CSR invariants (row_map starts at 0, never decreases and ends at
// the number of entries; every column index in [0, num_cols)) and throws kspmv::malformed_matrix
// naming the first bad row. One parallel pass over row_map and entries on A's execution space, the
// check a handle's setup makes (kspmv/handle.hpp); the guard for calls that set no handle up.

#include "kspmv/crs.hpp"
#include "kspmv/detail/structure_check.hpp"

namespace kspmv {

template <class Matrix>
void validate(const Matrix& matrix) {
  const auto& A = detail::as_crs_view(matrix);
  using ExecSpace = typename detail::crs_view_t<Matrix>::execution_space;
  detail::check_structure("kspmv::validate", ExecSpace(), A);
}

}  // namespace kspmv
