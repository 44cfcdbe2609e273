#pragma once
/// @file
/// kspmv::validate(A): A's CSR invariants, checked on demand.

#include "kspmv/crs.hpp"
#include "kspmv/detail/failures.hpp"
#include "kspmv/detail/structure_check.hpp"

namespace kspmv {

/// Checks A's CSR invariants: row_map starts at 0, never decreases and ends at the number of
/// entries; every column index lies in [0, num_cols). One parallel pass over row_map and entries
/// on the default instance of A's execution space, about at the copy bandwidth, whose result it
/// waits for: the check a handle's first call makes (kspmv::Handle), and the guard for calls that
/// set no handle up (on the Kokkos Kernels backend they check nothing). It checks the contents as
/// they are now; a later change is not seen.
/// @tparam Matrix a kspmv::CrsView or a KokkosSparse::CrsMatrix.
/// @param matrix the matrix A.
/// @throws kspmv::malformed_matrix naming the first bad row.
/// @throws kspmv::device_error when the pass itself fails (kspmv::out_of_memory where its memory
///   cannot be allocated).
template <class Matrix>
void validate(const Matrix& matrix) {
  const auto& A = detail::as_crs_view(matrix);
  using ExecSpace = typename detail::crs_view_t<Matrix>::execution_space;
  detail::as_kspmv_errors("kspmv::validate",
                          [&] { detail::check_structure("kspmv::validate", ExecSpace(), A); });
}

}  // namespace kspmv
