#pragma once
// The check every Tpetra integration test makes: the operator does what CrsMatrix::apply does, in
// every mode, for 1 and 3 vectors and three betas; and a seed drawn once and shared by the ranks.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "kspmv/testing/tpetra_problems.hpp"
#include "random_csr.hpp"

namespace kspmv::tpetra::testing {

using kspmv::testing::seed_message;

inline std::uint64_t shared_seed() {
  std::uint64_t seed = kspmv::testing::fresh_seed();
  Teuchos::broadcast(*comm(), 0, &seed);
  return seed;
}

// Every mode, 1 and 3 vectors, beta 0 / 1 / -0.5, through the operator and through A itself.
template <class Operator>
void expect_equivalent_modes(const Matrix& A, const Operator& op, std::uint64_t seed) {
  for (const auto mode : {Teuchos::NO_TRANS, Teuchos::TRANS, Teuchos::CONJ_TRANS}) {
    const bool forward = mode == Teuchos::NO_TRANS;
    for (const std::size_t vectors : {std::size_t{1}, std::size_t{3}}) {
      for (const Scalar beta : {0.0, 1.0, -0.5}) {
        SCOPED_TRACE("mode " + std::to_string(mode) + ", " + std::to_string(vectors) +
                     " vectors, beta " + std::to_string(beta));
        MultiVector X(forward ? A.getDomainMap() : A.getRangeMap(), vectors);
        MultiVector expected(forward ? A.getRangeMap() : A.getDomainMap(), vectors);
        fill(X, seed);
        fill(expected, seed + 7);
        MultiVector Y(expected, Teuchos::Copy);
        if (beta == 0.0) {
          expected.putScalar(0.0);
          Y.putScalar(std::numeric_limits<Scalar>::quiet_NaN());  // must be overwritten
        }
        A.apply(X, expected, mode, 1.5, beta);
        op.apply(X, Y, mode, 1.5, beta);
        EXPECT_LT(relative_difference(Y, expected), 1e-13);
      }
    }
  }
}

// The above with and without the interior rows multiplied while the Import is in flight.
inline void expect_equivalent(const Teuchos::RCP<const Matrix>& A, std::uint64_t seed) {
  const auto op = kspmv::tpetra::make_operator(A);
  for (const bool overlap : {true, false}) {
    SCOPED_TRACE(overlap ? "interior rows during the Import" : "every row after the Import");
    op->set_overlap(overlap);
    expect_equivalent_modes(*A, *op, seed);
  }
}

}  // namespace kspmv::tpetra::testing
