// Well-formed Matrix Market input: every field and symmetry, gzip, and the CSR conversion rules.

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "kspmv/matrices/matrix_market.hpp"
#include "temp_files.hpp"

namespace kspmv::matrices {
namespace {

using MatrixMarket = testing::WithScratchDirectory;
using Real = HostCsr<double, int, int>;
using Complex = HostCsr<std::complex<double>, int, int>;

template <class Csr>
void expect_structure(const Csr& A, std::int64_t rows, std::int64_t cols,
                      const std::vector<int>& row_map, const std::vector<int>& entries) {
  EXPECT_EQ(A.num_rows, rows);
  EXPECT_EQ(A.num_cols, cols);
  EXPECT_EQ(std::vector<int>(A.row_map.begin(), A.row_map.end()), row_map);
  EXPECT_EQ(std::vector<int>(A.entries.begin(), A.entries.end()), entries);
}

TEST_F(MatrixMarket, GeneralRealRowsOrderedByColumnDuplicatesKept) {
  const auto path = scratch_.write_text("general.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "% a comment\n"
                                        "3 4 5\n"
                                        "2 4 1.5\n"
                                        "1 3 -2e-3\n"
                                        "2 1 3\n"
                                        "2 4 7\n"
                                        "1 1 0.25\n");
  const auto A = read_matrix_market<double, int, int>(path);
  expect_structure(A, 3, 4, {0, 2, 5, 5}, {0, 2, 0, 3, 3});
  EXPECT_EQ(A.values, (std::vector<double>{0.25, -2e-3, 3, 1.5, 7}));
}

TEST_F(MatrixMarket, SymmetricStorageExpandsToBothTriangles) {
  const auto path = scratch_.write_text("symmetric.mtx",
                                        "%%MatrixMarket matrix coordinate real symmetric\n"
                                        "3 3 4\n"
                                        "1 1 1\n"
                                        "2 1 2\n"
                                        "3 2 3\n"
                                        "3 3 4\n");
  const auto A = read_matrix_market<double, int, int>(path);
  expect_structure(A, 3, 3, {0, 2, 4, 6}, {0, 1, 0, 2, 1, 2});
  EXPECT_EQ(A.values, (std::vector<double>{1, 2, 2, 3, 3, 4}));
}

TEST_F(MatrixMarket, SkewSymmetricMirrorsWithOppositeSign) {
  const auto path = scratch_.write_text("skew.mtx",
                                        "%%MatrixMarket matrix coordinate integer skew-symmetric\n"
                                        "2 2 1\n"
                                        "2 1 5\n");
  const auto A = read_matrix_market<double, int, int>(path);
  expect_structure(A, 2, 2, {0, 1, 2}, {1, 0});
  EXPECT_EQ(A.values, (std::vector<double>{-5, 5}));
}

TEST_F(MatrixMarket, HermitianMirrorsTheConjugate) {
  const auto path = scratch_.write_text("hermitian.mtx",
                                        "%%MatrixMarket matrix coordinate complex hermitian\n"
                                        "2 2 2\n"
                                        "1 1 2 0\n"
                                        "2 1 1 -3\n");
  const auto A = read_matrix_market<std::complex<double>, int, int>(path);
  expect_structure(A, 2, 2, {0, 2, 3}, {0, 1, 0});
  using C = std::complex<double>;
  EXPECT_EQ(A.values, (std::vector<C>{C(2, 0), C(1, 3), C(1, -3)}));
}

TEST_F(MatrixMarket, ComplexGeneralKeepsBothParts) {
  const auto path = scratch_.write_text("complex.mtx",
                                        "%%MatrixMarket matrix coordinate complex general\n"
                                        "1 2 2\n"
                                        "1 2 -1.5 2.5\n"
                                        "1 1 0 1\n");
  const auto A = read_matrix_market<std::complex<float>, int, int>(path);
  using C = std::complex<float>;
  EXPECT_EQ(A.values, (std::vector<C>{C(0, 1), C(-1.5f, 2.5f)}));
}

TEST_F(MatrixMarket, PatternEntriesAreOne) {
  const auto path = scratch_.write_text("pattern.mtx",
                                        "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                        "2 2 2\n"
                                        "1 1\n"
                                        "2 1\n");
  const auto A = read_matrix_market<float, int, int>(path);
  expect_structure(A, 2, 2, {0, 2, 3}, {0, 1, 0});
  EXPECT_EQ(A.values, (std::vector<float>{1, 1, 1}));
}

TEST_F(MatrixMarket, RealIntoComplexScalarHasZeroImaginaryPart) {
  const auto path = scratch_.write_text(
      "real_as_complex.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 4\n");
  const auto A = read_matrix_market<std::complex<double>, int, int>(path);
  EXPECT_EQ(A.values, (std::vector<std::complex<double>>{{4, 0}}));
}

TEST_F(MatrixMarket, GzipReadsLikePlainText) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n"
      "4 4 4\n1 1 1\n2 3 2\n4 2 3\n3 4 4\n";
  const auto plain =
      read_matrix_market<double, int, std::int64_t>(scratch_.write_text("same.mtx", text));
  const auto gz =
      read_matrix_market<double, int, std::int64_t>(scratch_.write_gzip("same.mtx.gz", text));
  EXPECT_EQ(gz.row_map, plain.row_map);
  EXPECT_EQ(gz.entries, plain.entries);
  EXPECT_EQ(gz.values, plain.values);
  EXPECT_EQ(gz.num_entries(), 4);
}

TEST_F(MatrixMarket, ToleratesCaseCrlfTabsBlankLinesCommentsAndPlusSigns) {
  const auto path = scratch_.write_text("lenient.mtx",
                                        "%%matrixmarket MATRIX Coordinate Real General\r\n"
                                        "\r\n"
                                        "%comment\r\n"
                                        "  2\t2   2  \r\n"
                                        "1 1 +1.0\r\n"
                                        "\r\n"
                                        "% between entries\r\n"
                                        "2\t2\t-2\r\n");
  const auto A = read_matrix_market<double, int, int>(path);
  expect_structure(A, 2, 2, {0, 1, 2}, {0, 1});
  EXPECT_EQ(A.values, (std::vector<double>{1, -2}));
}

TEST_F(MatrixMarket, EmptyMatrixAndEmptyRows) {
  const auto empty = read_matrix_market<double, int, int>(
      scratch_.write_text("empty.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n"));
  expect_structure(empty, 0, 0, {0}, {});
  const auto sparse = read_matrix_market<double, std::int64_t, std::size_t>(scratch_.write_text(
      "rows.mtx", "%%MatrixMarket matrix coordinate real general\n5 3 1\n4 3 1\n"));
  EXPECT_EQ(sparse.row_map, (std::vector<std::size_t>{0, 0, 0, 0, 1, 1}));
}

TEST_F(MatrixMarket, StoredCoordinatesKeepTheFileAsWritten) {
  const auto m =
      read_coordinates(scratch_.write_text("stored.mtx",
                                           "%%MatrixMarket matrix coordinate real symmetric\n"
                                           "%\n3 3 2\n3 1 1\n2 2 2\n"));
  EXPECT_EQ(m.symmetry, Symmetry::symmetric);
  EXPECT_EQ(m.field, Field::real);
  EXPECT_EQ(m.size_line, 3);
  EXPECT_EQ(m.rows, (std::vector<std::int64_t>{2, 1}));
  EXPECT_EQ(m.cols, (std::vector<std::int64_t>{0, 1}));
}

}  // namespace
}  // namespace kspmv::matrices
