// GoogleTest entry point for tests that need Kokkos initialised. It names the execution space the
// tests run on and its concurrency, so a log shows that a parallel space really ran them
// (tools/kokkos_version_matrix.py reads this line).
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::initialize(argc, argv);
  std::printf("kspmv tests run on Kokkos::%s, concurrency %d\n",
              Kokkos::DefaultExecutionSpace::name(),
              static_cast<int>(Kokkos::DefaultExecutionSpace().concurrency()));
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}
