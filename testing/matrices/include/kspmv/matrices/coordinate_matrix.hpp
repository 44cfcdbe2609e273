#pragma once
// A Matrix Market file as stored (one triangle for symmetric storage, 0-based indices, file order),
// and its conversion to CSR: symmetric, skew-symmetric and hermitian storage is expanded to the
// full matrix, each row is ordered by column, and duplicate entries are kept in file order.

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "kspmv/matrices/host_csr.hpp"
#include "kspmv/matrices/index_fits.hpp"
#include "kspmv/matrices/is_complex.hpp"
#include "kspmv/matrices/parse_error.hpp"

namespace kspmv::matrices {

enum class Field { real, integer, pattern, complex };
enum class Symmetry { general, symmetric, skew_symmetric, hermitian };

struct CoordinateMatrix {
  std::string source;  // the file name, for messages
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::int64_t size_line = 1;  // where the dimensions were declared
  std::int64_t num_rows = 0;
  std::int64_t num_cols = 0;
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> cols;
  std::vector<double> real;  // 1 for pattern entries
  std::vector<double> imag;  // empty unless the field is complex

  std::int64_t stored_entries() const { return static_cast<std::int64_t>(rows.size()); }
};

namespace detail {

template <class Scalar>
Scalar stored_value(const CoordinateMatrix& m, std::size_t k) {
  if constexpr (is_complex_v<Scalar>) {
    using Real = typename Scalar::value_type;
    return Scalar(static_cast<Real>(m.real[k]),
                  static_cast<Real>(m.imag.empty() ? 0.0 : m.imag[k]));
  } else {
    return static_cast<Scalar>(m.real[k]);
  }
}

// The value at (j, i) implied by the stored value at (i, j).
template <class Scalar>
Scalar mirrored_value(Symmetry symmetry, Scalar v) {
  if (symmetry == Symmetry::skew_symmetric) return -v;
  if constexpr (is_complex_v<Scalar>) {
    if (symmetry == Symmetry::hermitian) return std::conj(v);
  }
  return v;
}

template <class Integer>
void require_fits(const CoordinateMatrix& m, std::int64_t value, const char* what) {
  if (!index_fits<Integer>(value)) {
    throw parse_error(m.source, m.size_line,
                      std::string(what) + " " + std::to_string(value) + " does not fit the " +
                          std::to_string(8 * sizeof(Integer)) + "-bit index type requested");
  }
}

}  // namespace detail

template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> to_csr(const CoordinateMatrix& m) {
  if (m.field == Field::complex && !is_complex_v<Scalar>) {
    throw parse_error(m.source, 1,
                      "the matrix is complex; read it with a complex Scalar type, not a real one");
  }
  detail::require_fits<Ordinal>(m, m.num_rows, "row count");
  detail::require_fits<Ordinal>(m, m.num_cols, "column count");

  // Expanded entries in file order, each stored entry followed by its mirror image.
  const bool mirrored = m.symmetry != Symmetry::general;
  std::vector<std::int64_t> row, col;
  std::vector<Scalar> value;
  const std::size_t stored = m.rows.size();
  row.reserve(mirrored ? 2 * stored : stored);
  col.reserve(row.capacity());
  value.reserve(row.capacity());
  for (std::size_t k = 0; k < stored; ++k) {
    const Scalar v = detail::stored_value<Scalar>(m, k);
    row.push_back(m.rows[k]);
    col.push_back(m.cols[k]);
    value.push_back(v);
    if (mirrored && m.rows[k] != m.cols[k]) {
      row.push_back(m.cols[k]);
      col.push_back(m.rows[k]);
      value.push_back(detail::mirrored_value(m.symmetry, v));
    }
  }
  const auto nnz = static_cast<std::int64_t>(row.size());
  detail::require_fits<Offset>(m, nnz, "entry count");

  // Two stable counting sorts (by column, then by row) order each row by column and keep duplicates
  // in file order, in linear time.
  auto counting_order = [nnz](const std::vector<std::int64_t>& key, std::int64_t key_count,
                              const std::vector<std::int64_t>& input_order) {
    std::vector<std::int64_t> start(static_cast<std::size_t>(key_count) + 1, 0);
    for (auto k : key) ++start[static_cast<std::size_t>(k) + 1];
    for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    std::vector<std::int64_t> order(static_cast<std::size_t>(nnz));
    for (auto e : input_order) {
      order[static_cast<std::size_t>(start[static_cast<std::size_t>(key[e])]++)] = e;
    }
    return order;
  };
  std::vector<std::int64_t> file_order(static_cast<std::size_t>(nnz));
  for (std::int64_t e = 0; e < nnz; ++e) file_order[static_cast<std::size_t>(e)] = e;
  const auto by_column = counting_order(col, m.num_cols, file_order);
  const auto by_row_then_column = counting_order(row, m.num_rows, by_column);

  HostCsr<Scalar, Ordinal, Offset> A;
  A.num_rows = m.num_rows;
  A.num_cols = m.num_cols;
  A.row_map.assign(static_cast<std::size_t>(m.num_rows) + 1, Offset(0));
  for (auto r : row) ++A.row_map[static_cast<std::size_t>(r) + 1];
  for (std::size_t i = 1; i < A.row_map.size(); ++i) A.row_map[i] += A.row_map[i - 1];
  A.entries.reserve(static_cast<std::size_t>(nnz));
  A.values.reserve(static_cast<std::size_t>(nnz));
  for (auto e : by_row_then_column) {
    A.entries.push_back(static_cast<Ordinal>(col[static_cast<std::size_t>(e)]));
    A.values.push_back(value[static_cast<std::size_t>(e)]);
  }
  return A;
}

}  // namespace kspmv::matrices
