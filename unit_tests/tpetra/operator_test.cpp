// kspmv::tpetra::CrsOperator is equivalent to Tpetra::CrsMatrix::apply: on a distributed 3-D
// Poisson matrix with a contiguous, a non-contiguous (round-robin) and a rank-0-empty row Map, and
// on a rectangular matrix with its own domain and range Maps; 1 and 3 vectors; every mode; beta 0
// (Y poisoned with NaN for kspmv, zero for Tpetra), 1 and another value. Runs on every rank: each
// comparison is collective (norms), so every rank reaches the same verdict.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "tpetra_checks.hpp"

namespace kspmv::tpetra::testing {
namespace {

class TpetraOperator : public ::testing::TestWithParam<Distribution> {};

TEST_P(TpetraOperator, PoissonMatchesCrsMatrixApply) {
  const std::uint64_t seed = shared_seed();
  SCOPED_TRACE(seed_message(seed) + ", " + to_string(GetParam()) + ", " +
               std::to_string(comm()->getSize()) + " ranks");
  expect_equivalent(poisson(9, GetParam()), seed);
}

INSTANTIATE_TEST_SUITE_P(RowMaps, TpetraOperator,
                         ::testing::Values(Distribution::contiguous, Distribution::round_robin,
                                           Distribution::rank0_empty));

// Rectangular, domain and range Maps other than the row Map: Import and Export in every mode.
TEST(TpetraOperatorShapes, RectangularWithItsOwnDomainAndRangeMaps) {
  const std::uint64_t seed = shared_seed();
  SCOPED_TRACE(seed_message(seed) + ", " + std::to_string(comm()->getSize()) + " ranks");
  for (const Distribution range : {Distribution::contiguous, Distribution::round_robin}) {
    SCOPED_TRACE("range Map: " + to_string(range));
    expect_equivalent(rectangular(211, 157, range, seed), seed);
    expect_equivalent(rectangular(97, 301, range, seed), seed);
  }
}

// A non-const RCP, as Tpetra's readers return and applications hold, is taken as it is.
TEST(TpetraOperatorErrors, MatrixNotFillCompleteIsRefused) {
  const auto map = make_map(10, Distribution::contiguous);
  const Teuchos::RCP<Matrix> A = Teuchos::rcp(new Matrix(map, 1));
  EXPECT_THROW(kspmv::tpetra::make_operator(A), kspmv::unsupported_argument);
  EXPECT_NO_THROW(kspmv::tpetra::make_operator(
      Teuchos::rcp_const_cast<Matrix>(poisson(4, Distribution::contiguous))));
}

TEST(TpetraOperatorErrors, VectorsOnAnotherMapAreRefusedAndYIsUntouched) {
  const auto A = poisson(4, Distribution::contiguous);
  const auto op = kspmv::tpetra::make_operator(A);
  const auto other = make_map(64, Distribution::round_robin);  // same size, other distribution
  MultiVector X_other(other, 1), X(A->getDomainMap(), 2), Y(A->getRangeMap(), 1);
  X_other.putScalar(1.0);
  X.putScalar(1.0);
  Y.putScalar(3.0);
  const bool distributed = comm()->getSize() > 1;
  if (distributed) {
    EXPECT_THROW(op->apply(X_other, Y), kspmv::dimension_mismatch);
  }
  try {
    op->apply(X, Y);  // 2 vectors into 1
    ADD_FAILURE() << "no exception for 2 vectors into 1";
  } catch (const kspmv::dimension_mismatch& e) {
    EXPECT_NE(std::string(e.what()).find("X has 64 rows and 2 vectors"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(Y.getVector(0)->normInf(), 3.0);
  EXPECT_EQ(Y.getVector(0)->norm1(), 3.0 * 64);
}

}  // namespace
}  // namespace kspmv::tpetra::testing
