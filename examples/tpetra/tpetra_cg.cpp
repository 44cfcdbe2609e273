// Reads a symmetric positive definite matrix (Matrix Market) on rank 0, distributes its rows over
// the ranks with Tpetra, and solves A x = b (b: A times a vector of ones) with Belos' CG, every
// product through kspmv::tpetra::CrsOperator. Exits 1 unless CG converged to 1e-10 and x is the
// vector of ones to 1e-8.
//   mpirun -np 2 tpetra_cg matrix.mtx

#include <BelosLinearProblem.hpp>
#include <BelosPseudoBlockCGSolMgr.hpp>
#include <BelosTpetraAdapter.hpp>
#include <MatrixMarket_Tpetra.hpp>
#include <Teuchos_ParameterList.hpp>
#include <Tpetra_Core.hpp>

#include <iostream>

#include <kspmv/tpetra.hpp>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  if (argc != 2) {
    if (comm->getRank() == 0) std::cerr << "usage: " << argv[0] << " matrix.mtx\n";
    return 2;
  }
  using Matrix = Tpetra::CrsMatrix<double>;
  using MultiVector = Tpetra::MultiVector<double>;
  using Operator = Tpetra::Operator<double>;

  const Teuchos::RCP<const Matrix> A =
      Tpetra::MatrixMarket::Reader<Matrix>::readSparseFile(argv[1], comm);
  const auto op = kspmv::tpetra::make_operator(A);

  MultiVector ones(A->getDomainMap(), 1), x(A->getDomainMap(), 1), b(A->getRangeMap(), 1);
  ones.putScalar(1.0);
  op->apply(ones, b);  // b = A * ones

  auto problem = Teuchos::rcp(new Belos::LinearProblem<double, MultiVector, Operator>(
      op, Teuchos::rcpFromRef(x), Teuchos::rcpFromRef(b)));
  problem->setProblem();
  auto parameters = Teuchos::rcp(new Teuchos::ParameterList);
  parameters->set("Convergence Tolerance", 1e-10);
  parameters->set("Maximum Iterations", 1000);
  Belos::PseudoBlockCGSolMgr<double, MultiVector, Operator> solver(problem, parameters);
  const bool converged = solver.solve() == Belos::Converged;

  x.update(-1.0, ones, 1.0);
  const double error = x.getVector(0)->normInf();
  if (comm->getRank() == 0) {
    std::cout << A->getGlobalNumRows() << " rows on " << comm->getSize() << " ranks, "
              << A->getGlobalNumEntries() << " entries: CG "
              << (converged ? "converged" : "did not converge") << " in " << solver.getNumIters()
              << " iterations through kspmv (" << kspmv::to_string(op->handle().algorithm())
              << "); max |x - 1| = " << error << std::endl;
  }
  return converged && error < 1e-8 ? 0 : 1;
}
