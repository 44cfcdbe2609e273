// The oracle itself, on products small enough to do by hand: every other test trusts it.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "kspmv/reference/spmv_reference.hpp"

namespace kspmv::reference {
namespace {

// A = [1 2 0; 0 0 3] (2 x 3)
const std::vector<int> kRowMap{0, 2, 3};
const std::vector<int> kEntries{0, 1, 2};
const std::vector<double> kValues{1, 2, 3};
const CsrArrays<double, int, int> kA{2, 3, kRowMap.data(), kEntries.data(), kValues.data()};

TEST(Reference, NoTransposeByHand) {
  const Block<double> x{3, 1, {1, 10, 100}};
  const Block<double> y{2, 1, {5, 7}};
  const auto r = spmv(Mode::NoTranspose, 2.0, kA, x, 3.0, y);
  EXPECT_EQ(static_cast<double>(r.value(0, 0)), 3 * 5 + 2 * (1 + 20));
  EXPECT_EQ(static_cast<double>(r.value(1, 0)), 3 * 7 + 2 * 300);
  EXPECT_EQ(r.longest_reduction, 2);
}

TEST(Reference, TransposeByHand) {
  const Block<double> x{2, 1, {1, 10}};
  const Block<double> y{3, 1, {0, 0, 0}};
  const auto r = spmv(Mode::Transpose, 1.0, kA, x, 0.0, y);
  EXPECT_EQ(static_cast<double>(r.value(0, 0)), 1);
  EXPECT_EQ(static_cast<double>(r.value(1, 0)), 2);
  EXPECT_EQ(static_cast<double>(r.value(2, 0)), 30);
}

TEST(Reference, ConjugateTransposeConjugatesValues) {
  const std::vector<std::complex<double>> values{{0, 1}};
  const std::vector<int> row_map{0, 1}, entries{0};
  const CsrArrays<std::complex<double>, int, int> A{1, 1, row_map.data(), entries.data(),
                                                    values.data()};
  const Block<std::complex<double>> x{1, 1, {{1, 0}}};
  const Block<std::complex<double>> y{1, 1, {{0, 0}}};
  EXPECT_EQ(
      std::complex<double>(spmv(Mode::ConjugateTranspose, {1, 0}, A, x, {0, 0}, y).value(0, 0)),
      std::complex<double>(0, -1));
  EXPECT_EQ(std::complex<double>(spmv(Mode::Transpose, {1, 0}, A, x, {0, 0}, y).value(0, 0)),
            std::complex<double>(0, 1));
}

TEST(Reference, BetaZeroIgnoresNaNInY) {
  const Block<double> x{3, 1, {1, 1, 1}};
  const Block<double> y{2, 1, {std::numeric_limits<double>::quiet_NaN(), 1}};
  const auto r = spmv(Mode::NoTranspose, 1.0, kA, x, 0.0, y);
  EXPECT_EQ(static_cast<double>(r.value(0, 0)), 3);
}

TEST(Reference, CompareRejectsWrongAndNaNResults) {
  const Block<double> x{3, 1, {1, 1, 1}};
  const Block<double> y{2, 1, {0, 0}};
  const auto r = spmv(Mode::NoTranspose, 1.0, kA, x, 0.0, y);
  EXPECT_EQ(compare(r, Block<double>{2, 1, {3, 3}}), "");
  EXPECT_NE(compare(r, Block<double>{2, 1, {3, 3.0001}}), "");
  EXPECT_NE(compare(r, Block<double>{2, 1, {std::numeric_limits<double>::quiet_NaN(), 3}}), "");
  EXPECT_NE(compare(r, Block<double>{1, 1, {3}}), "");
}

// The error bounds' modulus of a complex term, taken without hypot, stays std::abs's at the ends of
// double's range: a product of three of the largest doubles, and of three of the smallest.
TEST(Reference, ComplexModulusHoldsAtTheEndsOfTheRange) {
  using W = std::complex<long double>;
  const long double largest = std::numeric_limits<double>::max();
  const long double smallest = std::numeric_limits<double>::denorm_min();
  for (const long double scale :
       {largest * largest * largest, smallest * smallest * smallest, 1.0L}) {
    const W term{3 * scale, -4 * scale};
    EXPECT_NEAR(static_cast<double>(modulus(term) / (5 * scale)), 1.0, 1e-15)
        << "scale " << static_cast<double>(std::log10(scale));
  }
  EXPECT_EQ(modulus(-2.5L), 2.5L);
}

}  // namespace
}  // namespace kspmv::reference
