// main() of the Tpetra integration's tests: MPI and Kokkos through Tpetra's ScopeGuard; rank 0
// prints the progress, every rank its failures.

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (Tpetra::getDefaultComm()->getRank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
