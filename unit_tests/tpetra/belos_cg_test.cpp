// A real solve: Belos' CG on the 3-D Poisson problem, once with the CrsMatrix itself as the
// operator and once with kspmv's CrsOperator over it. The same iteration count, and true residuals
// (||b - A x|| / ||b||, computed with the CrsMatrix) equal to 1e-10.

#include <gtest/gtest.h>
#include <BelosLinearProblem.hpp>
#include <BelosPseudoBlockCGSolMgr.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Teuchos_ParameterList.hpp>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "tpetra_checks.hpp"

namespace kspmv::tpetra::testing {
namespace {

using BelosOperator = Tpetra::Operator<Scalar>;

struct Solve {
  int iterations = 0;
  bool converged = false;
  double relative_residual = 0;
};

Solve solve_with(const Teuchos::RCP<const BelosOperator>& op, const Matrix& A,
                 const MultiVector& b) {
  auto x = Teuchos::rcp(new MultiVector(A.getDomainMap(), 1));
  auto problem = Teuchos::rcp(
      new Belos::LinearProblem<Scalar, MultiVector, BelosOperator>(op, x, Teuchos::rcpFromRef(b)));
  problem->setProblem();
  auto parameters = Teuchos::rcp(new Teuchos::ParameterList);
  parameters->set("Convergence Tolerance", 1e-10);
  parameters->set("Maximum Iterations", 500);
  Belos::PseudoBlockCGSolMgr<Scalar, MultiVector, BelosOperator> solver(problem, parameters);
  Solve result;
  result.converged = solver.solve() == Belos::Converged;
  result.iterations = solver.getNumIters();
  MultiVector residual(b, Teuchos::Copy);
  A.apply(*x, residual, Teuchos::NO_TRANS, -1.0, 1.0);
  result.relative_residual = residual.getVector(0)->norm2() / b.getVector(0)->norm2();
  return result;
}

TEST(TpetraOperatorBelos, CgOnPoissonTakesTheSameIterationsAsTheCrsMatrix) {
  const std::uint64_t seed = shared_seed();
  SCOPED_TRACE(seed_message(seed) + ", " + std::to_string(comm()->getSize()) + " ranks");
  const auto A = poisson(14, Distribution::round_robin);
  MultiVector b(A->getRangeMap(), 1);
  fill(b, seed);
  const auto with_tpetra = solve_with(A, *A, b);
  const auto with_kspmv = solve_with(kspmv::tpetra::make_operator(A), *A, b);
  EXPECT_TRUE(with_tpetra.converged);
  EXPECT_TRUE(with_kspmv.converged);
  EXPECT_GT(with_kspmv.iterations, 10);
  EXPECT_EQ(with_kspmv.iterations, with_tpetra.iterations);
  EXPECT_LT(with_kspmv.relative_residual, 1e-9);
  EXPECT_NEAR(with_kspmv.relative_residual, with_tpetra.relative_residual, 1e-10);
  if (comm()->getRank() == 0) {
    std::cout << "CG on Poisson 14^3: " << with_kspmv.iterations << " iterations through kspmv, "
              << with_tpetra.iterations << " through the CrsMatrix; relative residuals "
              << with_kspmv.relative_residual << " and " << with_tpetra.relative_residual
              << std::endl;
  }
}

}  // namespace
}  // namespace kspmv::tpetra::testing
