// Entry point of Kokkos Kernels' SpMV tests run against kspmv. Like unit_tests/kokkos/main.cpp it
// names the execution space the tests run on (tools/kokkos_version_matrix.py reads that line);
// after the tests it says how many of their calls kspmv answered and how many stayed on Kokkos
// Kernels.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>

#include "call_counts.hpp"

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::initialize(argc, argv);
  std::printf("kspmv tests run on Kokkos::%s, concurrency %d\n",
              Kokkos::DefaultExecutionSpace::name(),
              static_cast<int>(Kokkos::DefaultExecutionSpace().concurrency()));
  int result = RUN_ALL_TESTS();
  kspmv_kokkos_kernels_suite::print_call_counts(stdout);
  // Tests whose calls never reached the shim checked Kokkos Kernels, not kspmv, however green.
  if (::testing::UnitTest::GetInstance()->test_to_run_count() > 0 &&
      kspmv_kokkos_kernels_suite::calls_counted() == 0) {
    std::fprintf(stderr,
                 "no spmv call reached the shim: the extracted tests were not redirected to it "
                 "(unit_tests/kokkos_kernels_suite/extract_tests.cmake)\n");
    result = 1;
  }
  Kokkos::finalize();
  return result;
}
