#pragma once
// check_structure(caller, exec, A): the CSR invariants (kspmv/detail/csr_invariants.hpp) checked
// on A's execution space in one parallel pass over row_map and entries; only a malformed matrix is
// copied to the host, to name its first bad row in the kspmv::malformed_matrix thrown.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "kspmv/detail/csr_invariants.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::detail {

template <class ExecSpace, class CrsViewT>
bool breaks_csr_invariants(const ExecSpace& exec, const CrsViewT& A) {
  const auto num_rows = static_cast<std::int64_t>(A.num_rows());
  const auto num_cols = A.num_cols();
  const auto num_entries = static_cast<std::int64_t>(A.num_entries());
  if (num_rows == 0) return num_entries != 0;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  int breaks = 0;
  Kokkos::parallel_reduce(
      "kspmv::check_structure",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
          exec, 0, std::max(num_rows, num_entries)),
      KOKKOS_LAMBDA(const std::int64_t i, int& found) {
        if ((i < num_rows &&
             row_offsets_break(i, row_map(i), row_map(i + 1), num_rows, num_entries)) ||
            (i < num_entries && column_out_of_range(entries(i), num_cols))) {
          found = 1;
        }
      },
      Kokkos::LOr<int>(breaks));
  return breaks != 0;
}

// Throws kspmv::malformed_matrix, "<caller>: row R of the M x N matrix: <what breaks>", unless A
// keeps the CSR invariants.
template <class ExecSpace, class CrsViewT>
void check_structure(const char* caller, const ExecSpace& exec, const CrsViewT& A) {
  if (!breaks_csr_invariants(exec, A)) return;
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries());
  const std::string what = first_malformed_row(
      row_map.data(), entries.data(), static_cast<std::int64_t>(A.num_rows()),
      static_cast<std::int64_t>(A.num_cols()), static_cast<std::int64_t>(A.num_entries()));
  // Empty only where the arrays changed between the two reads (another thread writing them).
  throw malformed_matrix(std::string(caller) + ": " +
                         (what.empty() ? "the CSR arrays changed while they were checked" : what));
}

}  // namespace kspmv::detail
