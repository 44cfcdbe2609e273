// The generated families: names, shapes, entry counts, valid sorted rows, determinism.

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "kspmv/matrices/generators.hpp"

namespace kspmv::matrices {
namespace {

std::int64_t total_entries(const RowGenerator& rows) {
  std::int64_t nnz = 0;
  for (std::int64_t i = 0; i < rows.num_rows(); ++i) nnz += rows.row_length(i);
  return nnz;
}

template <class Csr>
void expect_valid_csr(const Csr& A) {
  ASSERT_EQ(A.row_map.size(), static_cast<std::size_t>(A.num_rows) + 1);
  EXPECT_EQ(static_cast<std::int64_t>(A.row_map.front()), 0);
  EXPECT_EQ(static_cast<std::int64_t>(A.row_map.back()), A.num_entries());
  EXPECT_EQ(A.values.size(), A.entries.size());
  for (std::int64_t i = 0; i < A.num_rows; ++i) {
    const auto begin = static_cast<std::int64_t>(A.row_map[i]);
    const auto end = static_cast<std::int64_t>(A.row_map[i + 1]);
    ASSERT_LE(begin, end) << "row " << i;
    for (auto e = begin; e < end; ++e) {
      ASSERT_GE(A.entries[e], 0) << "row " << i;
      ASSERT_LT(A.entries[e], A.num_cols) << "row " << i;
      if (e > begin) {
        ASSERT_LT(A.entries[e - 1], A.entries[e]) << "row " << i << " not increasing";
      }
    }
  }
}

TEST(Generators, FullScaleNamesMatchTheAnchors) {
  const std::map<Family, std::string> expected{{Family::stencil27, "stencil27_160"},
                                               {Family::uniform_k16, "uniform_2000000_k16"},
                                               {Family::uniform_k100, "uniform_100000_k100"},
                                               {Family::powerlaw, "powerlaw_2000000_a1.5"},
                                               {Family::shortrows, "shortrows_20000000"},
                                               {Family::fewdense, "fewdense_4000000"},
                                               {Family::tallskinny, "tallskinny_2000000x256_k16"}};
  for (auto family : all_families()) {
    EXPECT_EQ(make_row_generator({family})->name(), expected.at(family));
  }
}

TEST(Generators, FullScaleSizesMatchTheAnchors) {
  // Counting lengths stores nothing, so the full-size families are cheap to check.
  const auto stencil = make_row_generator({Family::stencil27});
  EXPECT_EQ(stencil->num_rows(), 160 * 160 * 160);
  EXPECT_EQ(total_entries(*stencil), 109215352);  // (3n - 2)^3
  EXPECT_EQ(total_entries(*make_row_generator({Family::uniform_k16})), 32000000);
  EXPECT_EQ(total_entries(*make_row_generator({Family::uniform_k100})), 10000000);
  EXPECT_EQ(total_entries(*make_row_generator({Family::tallskinny})), 32000000);
  EXPECT_EQ(total_entries(*make_row_generator({Family::fewdense})), 40 * 200000 + 3999960 * 8);
  const auto power = total_entries(*make_row_generator({Family::powerlaw}));
  EXPECT_GT(power, 14000000);
  EXPECT_LT(power, 16500000);
  const auto shortrows = make_row_generator({Family::shortrows});
  EXPECT_EQ(shortrows->num_rows(), 20000000);
}

TEST(Generators, ScaledNamesCarryTheScaledSize) {
  EXPECT_EQ(make_row_generator({Family::stencil27, 1.0 / 8})->name(), "stencil27_80");
  EXPECT_EQ(make_row_generator({Family::uniform_k16, 0.01})->name(), "uniform_20000_k16");
  EXPECT_EQ(make_row_generator({Family::uniform_k100, 0.01})->name(), "uniform_1000_k100");
  EXPECT_EQ(make_row_generator({Family::powerlaw, 0.01})->name(), "powerlaw_20000_a1.5");
  EXPECT_EQ(make_row_generator({Family::shortrows, 0.001})->name(), "shortrows_20000");
  EXPECT_EQ(make_row_generator({Family::fewdense, 0.01})->name(), "fewdense_40000");
  EXPECT_EQ(make_row_generator({Family::tallskinny, 0.01})->name(), "tallskinny_20000x256_k16");
}

TEST(Generators, ScaledShapesAndCounts) {
  const double scale = 0.002;
  const auto stencil = generate<double, int, int>({Family::stencil27, scale});
  const std::int64_t n = 20;  // 160 * cbrt(0.002) = 20.2
  EXPECT_EQ(stencil.num_rows, n * n * n);
  EXPECT_EQ(stencil.num_entries(), (3 * n - 2) * (3 * n - 2) * (3 * n - 2));

  const auto k16 = generate<double, int, int>({Family::uniform_k16, scale});
  EXPECT_EQ(k16.num_rows, 4000);
  EXPECT_EQ(k16.num_entries(), 4000 * 16);

  const auto k100 = generate<double, int, int>({Family::uniform_k100, scale});
  EXPECT_EQ(k100.num_rows, 200);
  EXPECT_EQ(k100.num_entries(), 200 * 100);

  const auto tall = generate<double, int, int>({Family::tallskinny, scale});
  EXPECT_EQ(tall.num_rows, 4000);
  EXPECT_EQ(tall.num_cols, 256);
  EXPECT_EQ(tall.num_entries(), 4000 * 16);

  const auto shortrows = generate<double, int, int>({Family::shortrows, scale / 10});
  EXPECT_EQ(shortrows.num_rows, 4000);
  for (std::int64_t i = 0; i < shortrows.num_rows; ++i) {
    const auto length = shortrows.row_map[i + 1] - shortrows.row_map[i];
    ASSERT_GE(length, 1);
    ASSERT_LE(length, 4);
  }

  const auto fewdense = generate<double, int, int>({Family::fewdense, scale});
  EXPECT_EQ(fewdense.num_rows, 8000);
  std::int64_t dense = 0;
  for (std::int64_t i = 0; i < fewdense.num_rows; ++i) {
    const auto length = fewdense.row_map[i + 1] - fewdense.row_map[i];
    if (length == 400) {
      ++dense;
    } else {
      ASSERT_EQ(length, 8) << "row " << i;
    }
  }
  EXPECT_EQ(dense, 40);

  const auto power = generate<double, int, int>({Family::powerlaw, scale});
  EXPECT_EQ(power.num_rows, 4000);
  std::int64_t longest = 0;
  for (std::int64_t i = 0; i < power.num_rows; ++i) {
    longest = std::max<std::int64_t>(longest, power.row_map[i + 1] - power.row_map[i]);
  }
  EXPECT_GT(longest, 20 * power.num_entries() / power.num_rows) << "no heavy tail";
}

TEST(Generators, RowsAreValidCsrForEveryFamily) {
  for (auto family : all_families()) {
    SCOPED_TRACE(family_name(family));
    expect_valid_csr(generate<float, std::int64_t, std::size_t>({family, 0.001}));
  }
}

TEST(Generators, TinyScalesClampToTheColumnCount) {
  for (auto family : all_families()) {
    SCOPED_TRACE(family_name(family));
    expect_valid_csr(generate<double, int, int>({family, 1e-7}));
  }
  // 100 columns requested of a 10-column matrix: every column once.
  const auto dense = generate<double, int, int>({Family::uniform_k100, 1e-4});
  EXPECT_EQ(dense.num_entries(), 10 * 10);
}

TEST(Generators, SameSpecSameMatrixOtherSeedOtherMatrix) {
  for (auto family : all_families()) {
    SCOPED_TRACE(family_name(family));
    const auto a = generate<double, int, int>({family, 0.01, 7});
    const auto b = generate<double, int, int>({family, 0.01, 7});
    const auto c = generate<double, int, int>({family, 0.01, 8});
    EXPECT_EQ(a.row_map, b.row_map);
    EXPECT_EQ(a.entries, b.entries);
    EXPECT_EQ(a.values, b.values);
    EXPECT_NE(a.values, c.values);
    if (family != Family::stencil27) {
      EXPECT_NE(a.entries, c.entries);
    }
  }
}

TEST(Generators, ValuesInUnitIntervalBothPartsForComplex) {
  const auto A = generate<std::complex<double>, int, int>({Family::uniform_k16, 0.001});
  bool negative = false;
  for (const auto& v : A.values) {
    for (double part : {v.real(), v.imag()}) {
      ASSERT_GE(part, -1.0);
      ASSERT_LT(part, 1.0);
      negative = negative || part < 0;
    }
  }
  EXPECT_TRUE(negative);
  EXPECT_NE(A.values[0].real(), A.values[0].imag());
}

TEST(Generators, RejectsBadScaleAndNarrowTypes) {
  EXPECT_THROW(make_row_generator({Family::stencil27, 0.0}), std::invalid_argument);
  EXPECT_THROW(make_row_generator({Family::stencil27, -1.0}), std::invalid_argument);
  EXPECT_THROW((generate<double, int, std::int8_t>({Family::uniform_k16, 0.001})),
               std::invalid_argument);
  EXPECT_THROW((generate<double, std::int8_t, int>({Family::uniform_k16, 0.001})),
               std::invalid_argument);
}

TEST(Generators, FamilyNamesRoundTrip) {
  for (auto family : all_families()) EXPECT_EQ(parse_family(family_name(family)), family);
  EXPECT_THROW(parse_family("tridiagonal"), std::invalid_argument);
}

}  // namespace
}  // namespace kspmv::matrices
