// The CSR invariants as stated once (kspmv/detail/csr_invariants.hpp): the per-row and per-entry
// predicates a device pass evaluates agree with first_malformed_row, the host's account of the
// first bad row, on every break and at the integer limits.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kspmv/detail/csr_invariants.hpp"

namespace kspmv::detail {
namespace {

struct Csr {
  std::int64_t num_rows, num_cols;
  std::vector<std::size_t> row_map;
  std::vector<int> entries;

  std::string first_bad() const {
    return first_malformed_row(row_map.data(), entries.data(), num_rows, num_cols,
                               static_cast<std::int64_t>(entries.size()));
  }
  // What a device pass concludes: any row or entry breaking.
  bool predicates_break() const {
    const auto n = static_cast<std::int64_t>(entries.size());
    if (num_rows == 0) return n != 0;
    for (std::int64_t i = 0; i < num_rows; ++i) {
      if (row_offsets_break(i, row_map[i], row_map[i + 1], num_rows, n)) return true;
    }
    for (const int c : entries) {
      if (column_out_of_range(c, static_cast<int>(num_cols))) return true;
    }
    return false;
  }
};

// 4 x 3, rows {0, 2}, {1}, {0, 1}, {1, 2}.
Csr well_formed() {
  return {4, 3, {0, 2, 3, 5, 7}, {0, 2, 1, 0, 1, 1, 2}};
}

TEST(CsrInvariants, WellFormedMatricesPass) {
  for (const Csr& A : {well_formed(), Csr{0, 0, {}, {}}, Csr{0, 5, {}, {}},
                       Csr{3, 0, {0, 0, 0, 0}, {}}, Csr{2, 2, {0, 0, 2}, {1, 1}}}) {
    EXPECT_EQ(A.first_bad(), "");
    EXPECT_FALSE(A.predicates_break());
  }
}

TEST(CsrInvariants, EachBreakNamesItsRowAndThePredicatesAgree) {
  const std::size_t huge = std::numeric_limits<std::size_t>::max();  // negative as int64_t
  struct Case {
    const char* name;
    Csr A;
    std::string message;
  };
  const auto with = [](auto change) {
    Csr A = well_formed();
    change(A);
    return A;
  };
  const std::vector<Case> cases = {
      {"column past the end", with([](Csr& A) { A.entries[3] = 100000; }),
       "row 2 of the 4 x 3 matrix: column index 100000 (entry 3) is outside [0, 3)"},
      {"negative column", with([](Csr& A) { A.entries[2] = -1; }),
       "row 1 of the 4 x 3 matrix: column index -1 (entry 2) is outside [0, 3)"},
      {"column == num_cols", with([](Csr& A) { A.entries[6] = 3; }),
       "row 3 of the 4 x 3 matrix: column index 3 (entry 6) is outside [0, 3)"},
      {"first offset", with([](Csr& A) { A.row_map[0] = 2; }),
       "row 0 of the 4 x 3 matrix: row_map(0) = 2, must be 0"},
      {"decreasing", with([](Csr& A) { A.row_map[2] = 1; }),
       "row 1 of the 4 x 3 matrix: row_map decreases (row_map(1) = 2, row_map(2) = 1)"},
      {"past the entries", with([](Csr& A) { A.row_map[4] = 5000; }),
       "row 3 of the 4 x 3 matrix: row_map(4) = 5000 exceeds the number of entries, 7"},
      {"ends early", with([](Csr& A) { A.row_map[4] = 6; }),
       "row 3 of the 4 x 3 matrix: row_map(4) = 6 but there are 7 entries"},
      {"offset past int64", with([huge](Csr& A) { A.row_map[1] = huge; }),
       "row 0 of the 4 x 3 matrix: row_map decreases (row_map(0) = 0, row_map(1) = " +
           std::to_string(huge) + ")"},
      {"entries but no rows", Csr{0, 3, {}, {0, 1}}, "a matrix with no rows has 2 entries"},
      // The earlier of two breaks, whichever kind each is.
      {"two breaks", with([](Csr& A) {
         A.entries[6] = -7;
         A.row_map[2] = 2;
         A.entries[1] = 9;
       }),
       "row 0 of the 4 x 3 matrix: column index 9 (entry 1) is outside [0, 3)"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.A.first_bad(), c.message) << c.name;
    EXPECT_TRUE(c.A.predicates_break()) << c.name;
  }
}

TEST(CsrInvariants, PredicatesAtTheIntegerLimits) {
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  EXPECT_FALSE(row_offsets_break(0, std::int64_t{0}, kMax, 1, kMax));
  EXPECT_TRUE(row_offsets_break(0, std::uint64_t{0}, ~std::uint64_t{0}, 1, kMax));
  EXPECT_TRUE(column_out_of_range(std::numeric_limits<std::int64_t>::min(), std::int64_t{10}));
  EXPECT_TRUE(column_out_of_range(-1, 10));
  EXPECT_TRUE(
      column_out_of_range(std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  EXPECT_FALSE(
      column_out_of_range(std::numeric_limits<int>::max() - 1, std::numeric_limits<int>::max()));
  EXPECT_TRUE(
      column_out_of_range(std::numeric_limits<int>::max(), std::numeric_limits<int>::max()));
  EXPECT_TRUE(column_out_of_range(0, 0));
}

}  // namespace
}  // namespace kspmv::detail
