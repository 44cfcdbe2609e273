#pragma once
// Random test inputs shared by every backend's tests (Kokkos-free). Each test draws a fresh seed
// and prints it on failure (SCOPED_TRACE(seed_message(seed))) so any failure can be replayed with
// KSPMV_TEST_SEED=<seed>.

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kspmv/matrices/host_csr.hpp"
#include "kspmv/reference/spmv_reference.hpp"

namespace kspmv::testing {

// A fresh seed per call, or the one in KSPMV_TEST_SEED to replay a failure.
inline std::uint64_t fresh_seed() {
  if (const char* s = std::getenv("KSPMV_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  static std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}
inline std::string seed_message(std::uint64_t seed) {
  return "seed " + std::to_string(seed) + " (replay with KSPMV_TEST_SEED=" + std::to_string(seed) +
         ")";
}

// Values in [-1, 1) (both parts for complex): never zero-heavy, so unwritten outputs show.
template <class Scalar>
Scalar random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (std::is_arithmetic_v<Scalar>) {
    return static_cast<Scalar>(d(rng));
  } else {
    using R = typename Scalar::value_type;
    return Scalar(static_cast<R>(d(rng)), static_cast<R>(d(rng)));
  }
}

// The host CSR of the matrix library (testing/matrices), as the reference oracle reads it.
using matrices::HostCsr;

template <class Scalar, class Ordinal, class Offset>
reference::CsrArrays<Scalar, Ordinal, Offset> arrays(const HostCsr<Scalar, Ordinal, Offset>& A) {
  return {A.num_rows, A.num_cols, A.row_map.data(), A.entries.data(), A.values.data()};
}

struct RowShape {
  std::int64_t min_length = 0;  // per-row nonzero count drawn uniformly in [min, max]
  std::int64_t max_length = 8;
  bool sorted = true;  // column indices increasing within a row
  bool allow_duplicates = false;
};

// A num_rows x num_cols matrix with row lengths from `shape` (clamped to num_cols unless duplicates
// are allowed).
template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> random_csr(std::int64_t num_rows, std::int64_t num_cols,
                                            RowShape shape, std::mt19937_64& rng) {
  HostCsr<Scalar, Ordinal, Offset> A;
  A.num_rows = num_rows;
  A.num_cols = num_cols;
  A.row_map.assign(1, Offset(0));
  std::uniform_int_distribution<std::int64_t> length(shape.min_length, shape.max_length);
  std::vector<Ordinal> columns(static_cast<std::size_t>(num_cols));
  std::iota(columns.begin(), columns.end(), Ordinal(0));
  for (std::int64_t i = 0; i < num_rows; ++i) {
    std::int64_t n = num_cols == 0 ? 0 : length(rng);
    if (!shape.allow_duplicates) n = std::min(n, num_cols);
    std::vector<Ordinal> row;
    if (shape.allow_duplicates) {
      std::uniform_int_distribution<std::int64_t> col(0, num_cols - 1);
      for (std::int64_t k = 0; k < n; ++k) row.push_back(static_cast<Ordinal>(col(rng)));
    } else {
      // Partial Fisher-Yates: n distinct columns.
      for (std::int64_t k = 0; k < n; ++k) {
        std::uniform_int_distribution<std::int64_t> pick(k, num_cols - 1);
        std::swap(columns[static_cast<std::size_t>(k)],
                  columns[static_cast<std::size_t>(pick(rng))]);
        row.push_back(columns[static_cast<std::size_t>(k)]);
      }
    }
    if (shape.sorted) std::sort(row.begin(), row.end());
    for (Ordinal c : row) {
      A.entries.push_back(c);
      A.values.push_back(random_value<Scalar>(rng));
    }
    A.row_map.push_back(static_cast<Offset>(A.entries.size()));
  }
  return A;
}

// Most nonzeros in one row: `dense_row` holds `dense_length` entries, every other row
// `other_length`.
template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> one_dense_row_csr(std::int64_t num_rows, std::int64_t num_cols,
                                                   std::int64_t dense_row,
                                                   std::int64_t dense_length,
                                                   std::int64_t other_length,
                                                   std::mt19937_64& rng) {
  auto A = random_csr<Scalar, Ordinal, Offset>(num_rows, num_cols,
                                               RowShape{other_length, other_length}, rng);
  HostCsr<Scalar, Ordinal, Offset> B;
  B.num_rows = num_rows;
  B.num_cols = num_cols;
  for (std::int64_t i = 0; i < num_rows; ++i) {
    if (i == dense_row) {
      for (std::int64_t k = 0; k < dense_length; ++k) {
        B.entries.push_back(static_cast<Ordinal>(k % num_cols));
        B.values.push_back(random_value<Scalar>(rng));
      }
    } else {
      for (auto e = A.row_map[i]; e < A.row_map[i + 1]; ++e) {
        B.entries.push_back(A.entries[e]);
        B.values.push_back(A.values[e]);
      }
    }
    B.row_map.push_back(static_cast<Offset>(B.entries.size()));
  }
  return B;
}

// A num_rows x num_cols matrix whose row i holds the columns columns(i) returns (a container of
// integers, in the order stored), with random values: rows shaped one by one.
template <class Scalar, class Ordinal, class Offset, class Columns>
HostCsr<Scalar, Ordinal, Offset> csr_with_columns(std::int64_t num_rows, std::int64_t num_cols,
                                                  Columns&& columns, std::mt19937_64& rng) {
  HostCsr<Scalar, Ordinal, Offset> A;
  A.num_rows = num_rows;
  A.num_cols = num_cols;
  for (std::int64_t i = 0; i < num_rows; ++i) {
    for (const auto column : columns(i)) {
      A.entries.push_back(static_cast<Ordinal>(column));
      A.values.push_back(random_value<Scalar>(rng));
    }
    A.row_map.push_back(static_cast<Offset>(A.entries.size()));
  }
  return A;
}

// A num_rows x num_cols matrix whose row i holds length(i) entries, in columns
// (k * stride + i) % num_cols for k = 0, 1, ... (repeated where the row is longer than num_cols),
// with random values.
template <class Scalar, class Ordinal, class Offset, class Length>
HostCsr<Scalar, Ordinal, Offset> csr_with_row_lengths(std::int64_t num_rows, std::int64_t num_cols,
                                                      Length&& length, std::int64_t stride,
                                                      std::mt19937_64& rng) {
  return csr_with_columns<Scalar, Ordinal, Offset>(
      num_rows, num_cols,
      [&](std::int64_t i) {
        std::vector<std::int64_t> columns(static_cast<std::size_t>(length(i)));
        for (std::size_t k = 0; k < columns.size(); ++k) {
          columns[k] = (static_cast<std::int64_t>(k) * stride + i) % num_cols;
        }
        return columns;
      },
      rng);
}

// An n x n matrix whose pattern is symmetric (A(j, i) stored wherever A(i, j) is) and whose
// values are not: the pattern of a random matrix united with its transpose, rows sorted, random
// values.
template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> symmetric_pattern_csr(std::int64_t n, RowShape shape,
                                                       std::mt19937_64& rng) {
  const auto half = random_csr<Scalar, Ordinal, Offset>(n, n, shape, rng);
  std::vector<std::vector<Ordinal>> rows(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    for (auto e = half.row_map[i]; e < half.row_map[i + 1]; ++e) {
      const auto j = half.entries[e];
      rows[static_cast<std::size_t>(i)].push_back(j);
      rows[static_cast<std::size_t>(j)].push_back(static_cast<Ordinal>(i));
    }
  }
  HostCsr<Scalar, Ordinal, Offset> A;
  A.num_rows = n;
  A.num_cols = n;
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (const Ordinal j : row) {
      A.entries.push_back(j);
      A.values.push_back(random_value<Scalar>(rng));
    }
    A.row_map.push_back(static_cast<Offset>(A.entries.size()));
  }
  return A;
}

// A's values converted to Wide (single precision values widened exactly), the structure kept.
template <class Wide, class Narrow, class Ordinal, class Offset>
HostCsr<Wide, Ordinal, Offset> widened_csr(const HostCsr<Narrow, Ordinal, Offset>& A) {
  HostCsr<Wide, Ordinal, Offset> W;
  W.num_rows = A.num_rows;
  W.num_cols = A.num_cols;
  W.row_map = A.row_map;
  W.entries = A.entries;
  W.values.assign(A.values.begin(), A.values.end());
  return W;
}

// k random vectors of length n, column-major.
template <class Scalar>
reference::Block<Scalar> random_block(std::int64_t n, std::int64_t k, std::mt19937_64& rng) {
  reference::Block<Scalar> b{n, k, std::vector<Scalar>(static_cast<std::size_t>(n * k))};
  for (auto& v : b.data) v = random_value<Scalar>(rng);
  return b;
}

// A value no correct result equals: outputs are poisoned with it before each call.
template <class Scalar>
Scalar poison() {
  using R = reference::real_t<Scalar>;
  if constexpr (std::is_arithmetic_v<Scalar>) {
    return std::numeric_limits<R>::quiet_NaN();
  } else {
    return Scalar(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  }
}

}  // namespace kspmv::testing
