// Matrices of a chosen shape (ShapeSpec), the points of a sweep over the features Auto's rules
// read: the mean and spread of the row lengths and the reach of the columns come out as asked.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kspmv/matrices/generators.hpp"

namespace kspmv::matrices {
namespace {

HostCsr<double, int, int> shaped(const std::string& text, double scale = 1.0) {
  return generate<double, int, int>(GeneratorSpec(parse_shape(text), scale));
}

std::vector<double> row_lengths(const HostCsr<double, int, int>& A) {
  std::vector<double> lengths;
  for (int i = 0; i < A.num_rows; ++i) lengths.push_back(A.row_map[i + 1] - A.row_map[i]);
  return lengths;
}

double mean_of(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double coefficient_of_variation(const std::vector<double>& v) {
  const double mean = mean_of(v);
  double squares = 0;
  for (double x : v) squares += (x - mean) * (x - mean);
  return std::sqrt(squares / static_cast<double>(v.size())) / mean;
}

TEST(ShapedGenerator, ParsesTheFeatures) {
  const ShapeSpec shape = parse_shape("rows=1000,cols=500,mean=12,spread=1.5,reach=64");
  EXPECT_EQ(shape.rows, 1000);
  EXPECT_EQ(shape.cols, 500);
  EXPECT_EQ(shape.mean, 12.0);
  EXPECT_EQ(shape.spread, 1.5);
  EXPECT_EQ(shape.reach, 64);
  const ShapeSpec square = parse_shape("rows=1e6,mean=3,spread=0,reach=all");
  EXPECT_EQ(square.cols, 1000000);
  EXPECT_EQ(square.reach, square.cols);
}

TEST(ShapedGenerator, RefusesWhatIsNotAShapeNamingTheField) {
  const auto message = [](const std::string& text) {
    try {
      parse_shape(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("rows=100,mean=4,spread=0").find("lacks reach="), std::string::npos);
  EXPECT_NE(message("rows=100,mean=4,spread=0,reach=9,width=3").find("unknown field 'width'"),
            std::string::npos);
  EXPECT_NE(message("rows=100,mean=four,spread=0,reach=9").find("mean=four is not a number"),
            std::string::npos);
  EXPECT_NE(message("rows=100,mean=400,spread=0,reach=9").find("mean row length"),
            std::string::npos);
  EXPECT_NE(message("rows=100,mean=4,spread=-1,reach=9").find("spread"), std::string::npos);
  EXPECT_NE(message("rows=0,mean=4,spread=0,reach=9").find("at least one row"), std::string::npos);
  EXPECT_NE(message("rows=1e30,mean=4,spread=0,reach=9").find("rows=1e30 is too large"),
            std::string::npos);
}

TEST(ShapedGenerator, NamesCarryTheShape) {
  const auto name = [](const std::string& text, double scale = 1.0) {
    return make_row_generator(GeneratorSpec(parse_shape(text), scale))->name();
  };
  EXPECT_EQ(name("rows=1000,mean=12,spread=1,reach=all"), "shape_1000x1000_m12_s1_rall");
  EXPECT_EQ(name("rows=1000,cols=300,mean=2.5,spread=0,reach=256"), "shape_1000x300_m2.5_s0_r256");
  // Scaled: rows and columns shrink, the reach does not (it may then cover every column).
  EXPECT_EQ(name("rows=1000,cols=300,mean=2.5,spread=0,reach=256", 0.1),
            "shape_100x30_m2.5_s0_rall");
}

TEST(ShapedGenerator, RowLengthsHaveTheMeanAndSpreadAsked) {
  const auto fixed = row_lengths(shaped("rows=20000,mean=12,spread=0,reach=all"));
  EXPECT_EQ(mean_of(fixed), 12.0);
  EXPECT_EQ(coefficient_of_variation(fixed), 0.0);

  // A fractional mean: rows of 2 and 3 entries, 2.5 on average.
  const auto fractional = row_lengths(shaped("rows=20000,mean=2.5,spread=0,reach=all"));
  EXPECT_NEAR(mean_of(fractional), 2.5, 0.03);
  for (double length : fractional) ASSERT_TRUE(length == 2 || length == 3) << length;

  // Lognormal: the mean holds, the spread is about the one asked, and a tail appears.
  const auto spread = row_lengths(shaped("rows=50000,mean=12,spread=1,reach=all"));
  EXPECT_NEAR(mean_of(spread), 12.0, 0.4);
  EXPECT_NEAR(coefficient_of_variation(spread), 1.0, 0.15);
  double longest = 0;
  for (double length : spread) longest = std::max(longest, length);
  EXPECT_GT(longest, 6 * 12.0);

  // A spread so wide that the tail passes the width: rows are clamped to it, never overflowed.
  const auto extreme = row_lengths(shaped("rows=2000,cols=300,mean=50,spread=1e6,reach=all"));
  for (double length : extreme) ASSERT_LE(length, 300);
}

TEST(ShapedGenerator, ColumnsStayWithinReachOfTheDiagonal) {
  const auto A = shaped("rows=4000,cols=2000,mean=6,spread=1,reach=5");
  for (int i = 0; i < A.num_rows; ++i) {
    const int diagonal = static_cast<int>(static_cast<double>(i) * 2000 / 4000);
    ASSERT_LE(A.row_map[i + 1] - A.row_map[i], 11) << "row " << i << " longer than its window";
    for (int e = A.row_map[i]; e < A.row_map[i + 1]; ++e) {
      ASSERT_LE(std::abs(A.entries[e] - diagonal), 5) << "row " << i;
      if (e > A.row_map[i]) {
        ASSERT_LT(A.entries[e - 1], A.entries[e]) << "row " << i;
      }
    }
  }
  // Anywhere: the columns of a few rows cover the whole width.
  const auto B = shaped("rows=4000,mean=6,spread=0,reach=all");
  int widest = 0;
  for (int e = 0; e < B.num_entries(); ++e) widest = std::max(widest, B.entries[e]);
  EXPECT_GT(widest, 3900);
}

TEST(ShapedGenerator, TheSweepCoversEveryCombinationOnce) {
  const auto shapes = sweep_shapes(1000000);
  ASSERT_EQ(shapes.size(), 27u);
  std::set<std::string> names;
  for (const auto& shape : shapes) names.insert(make_row_generator(GeneratorSpec(shape))->name());
  EXPECT_EQ(names.size(), 27u);
  EXPECT_EQ(names.count("shape_1000000x1000000_m48_s4_r256"), 1u);
  EXPECT_EQ(names.count("shape_1000000x1000000_m3_s0_rall"), 1u);
}

TEST(ShapedGenerator, SameSpecSameMatrix) {
  const auto a = shaped("rows=3000,mean=7,spread=2,reach=100");
  const auto b = shaped("rows=3000,mean=7,spread=2,reach=100");
  EXPECT_EQ(a.row_map, b.row_map);
  EXPECT_EQ(a.entries, b.entries);
  EXPECT_EQ(a.values, b.values);
}

}  // namespace
}  // namespace kspmv::matrices
