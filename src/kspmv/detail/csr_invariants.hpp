#pragma once
// The CSR invariants every backend relies on, stated once: row_map starts at 0, never decreases and
// ends at the number of entries; every column index lies in [0, num_cols). A device pass evaluates
// the two predicates for every row and every entry (a yes or no, one read of row_map and entries);
// only a matrix found malformed is brought to the host, where first_malformed_row() names the first
// bad row and what breaks there. No Kokkos here: kspmv's CUDA backend uses it too.

#include <cstdint>
#include <string>
#include <type_traits>

#include "kspmv/detail/host_device.hpp"

namespace kspmv::detail {

// Whether row `row`'s offsets [begin, end) break the invariants. Compared as 64-bit signed
// integers: an unsigned offset past that range becomes negative and fails a row at or before it.
template <class Offset>
KSPMV_HOST_DEVICE constexpr bool row_offsets_break(std::int64_t row, Offset begin, Offset end,
                                                   std::int64_t num_rows,
                                                   std::int64_t num_entries) {
  const auto b = static_cast<std::int64_t>(begin);
  const auto e = static_cast<std::int64_t>(end);
  return (row == 0 && b != 0) || e < b || e > num_entries ||
         (row == num_rows - 1 && e != num_entries);
}

// num_cols is non-negative and of the ordinal type, so one unsigned comparison covers both ends
// (a negative column becomes a large unsigned one): the device pass makes it for every entry.
template <class Ordinal>
KSPMV_HOST_DEVICE constexpr bool column_out_of_range(Ordinal column, Ordinal num_cols) {
  using Unsigned = std::make_unsigned_t<Ordinal>;
  return static_cast<Unsigned>(column) >= static_cast<Unsigned>(num_cols);
}

// The first row at which the arrays break an invariant and what breaks there ("row 3 of the 4 x 3
// matrix: ..."), or an empty string for a well-formed matrix. row_map holds num_rows + 1 offsets
// (or none when num_rows is 0), entries num_entries columns; both in host memory. num_cols fits
// the ordinal type (make_crs_view and the raw API's types see to it).
template <class Offset, class Ordinal>
std::string first_malformed_row(const Offset* row_map, const Ordinal* entries,
                                std::int64_t num_rows, std::int64_t num_cols,
                                std::int64_t num_entries) {
  if (num_rows == 0) {
    return num_entries == 0
               ? std::string()
               : "a matrix with no rows has " + std::to_string(num_entries) + " entries";
  }
  const auto at_row = [&](std::int64_t row, const std::string& what) {
    return "row " + std::to_string(row) + " of the " + std::to_string(num_rows) + " x " +
           std::to_string(num_cols) + " matrix: " + what;
  };
  const auto offset = [&](std::int64_t i) { return static_cast<std::int64_t>(row_map[i]); };
  const auto row_map_at = [&](std::int64_t i) {
    return "row_map(" + std::to_string(i) + ") = " + std::to_string(row_map[i]);
  };
  if (offset(0) != 0) return at_row(0, row_map_at(0) + ", must be 0");
  for (std::int64_t row = 0; row < num_rows; ++row) {
    const std::int64_t begin = offset(row);
    const std::int64_t end = offset(row + 1);
    if (end < begin) {
      return at_row(row,
                    "row_map decreases (" + row_map_at(row) + ", " + row_map_at(row + 1) + ")");
    }
    if (end > num_entries) {
      return at_row(row, row_map_at(row + 1) + " exceeds the number of entries, " +
                             std::to_string(num_entries));
    }
    for (std::int64_t e = begin; e < end; ++e) {
      if (column_out_of_range(entries[e], static_cast<Ordinal>(num_cols))) {
        return at_row(row, "column index " + std::to_string(entries[e]) + " (entry " +
                               std::to_string(e) + ") is outside [0, " + std::to_string(num_cols) +
                               ")");
      }
    }
  }
  if (offset(num_rows) != num_entries) {
    return at_row(num_rows - 1, row_map_at(num_rows) + " but there are " +
                                    std::to_string(num_entries) + " entries");
  }
  return {};
}

}  // namespace kspmv::detail
