#pragma once
// kspmv::validate(A): checks the CSR invariants on the host and throws kspmv::malformed_matrix
// naming the first bad row. It copies row_map and entries to the host, so it is meant for debugging
// and for input read from files, not for every call.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kspmv/crs.hpp"
#include "kspmv/errors.hpp"

namespace kspmv {

template <class Matrix>
void validate(const Matrix& matrix) {
  const auto& A = detail::as_crs_view(matrix);
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries());
  const auto num_rows = static_cast<std::int64_t>(A.num_rows());
  const auto num_cols = static_cast<std::int64_t>(A.num_cols());
  const auto num_entries = static_cast<std::int64_t>(A.num_entries());
  const auto fail = [&](std::int64_t row, const std::string& what) {
    throw malformed_matrix("kspmv::validate: row " + std::to_string(row) + " of the " +
                           std::to_string(num_rows) + " x " + std::to_string(num_cols) +
                           " matrix: " + what);
  };

  if (num_rows == 0) {
    if (num_entries != 0) {
      throw malformed_matrix("kspmv::validate: a matrix with no rows has " +
                             std::to_string(num_entries) + " entries");
    }
    return;
  }
  if (static_cast<std::int64_t>(row_map(0)) != 0) {
    fail(0, "row_map(0) is " + std::to_string(row_map(0)) + ", must be 0");
  }
  for (std::int64_t i = 0; i < num_rows; ++i) {
    const auto begin = static_cast<std::int64_t>(row_map(i));
    const auto end = static_cast<std::int64_t>(row_map(i + 1));
    if (end < begin) {
      fail(i, "row_map decreases (row_map(" + std::to_string(i) + ") = " + std::to_string(begin) +
                  ", row_map(" + std::to_string(i + 1) + ") = " + std::to_string(end) + ")");
    }
    if (end > num_entries) {
      fail(i, "row_map(" + std::to_string(i + 1) + ") = " + std::to_string(end) +
                  " exceeds the number of entries, " + std::to_string(num_entries));
    }
    for (std::int64_t e = begin; e < end; ++e) {
      const auto col = static_cast<std::int64_t>(entries(e));
      if (col < 0 || col >= num_cols) {
        fail(i, "column index " + std::to_string(col) + " (entry " + std::to_string(e) +
                    ") is outside [0, " + std::to_string(num_cols) + ")");
      }
    }
  }
  if (static_cast<std::int64_t>(row_map(num_rows)) != num_entries) {
    fail(num_rows - 1, "row_map(" + std::to_string(num_rows) +
                           ") = " + std::to_string(row_map(num_rows)) + " but there are " +
                           std::to_string(num_entries) + " entries");
  }
}

}  // namespace kspmv
