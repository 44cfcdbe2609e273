// A time stepper that rebuilds its matrix calls spmv without a handle on thousands of matrices: the
// process's memory must stay bounded. What a call without a handle keeps is bounded by design (the
// Kokkos Kernels backend remembers the last 64 checked structures by address, holding no memory of
// theirs; the CUDA backend caches at most 16 plans per type), so after a warm-up the resident set
// may not grow with the number of matrices. Each product is checked against the exact answer.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "laplacian_application.hpp"

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using kspmv::testing::error_of;
using kspmv::testing::Laplacian;
using kspmv::testing::poisoned;
using kspmv::testing::ramp;

// The process's resident set, in bytes (Linux: /proc/self/statm's second field, in pages).
long long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long long pages_total = 0;
  long long pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * 4096;
}

// One step: a new matrix (its size varying, so that allocations differ), a call without a handle,
// the matrix freed.
double step(int index) {
  const int n = 2000 + index % 97;
  const Laplacian<Exec> laplacian(n);
  const auto x = ramp<Exec>(n);
  const auto y = poisoned<Exec>(n);
  kspmv::spmv(Exec(), index % 2 ? "T" : "N", 1.0, laplacian.view(), x, 0.0, y);
  Exec().fence();
  return error_of(y);
}

TEST(SoakWithoutHandle, ThousandsOfMatricesKeepMemoryBounded) {
  constexpr int kWarmup = 200;
  constexpr int kSteps = 3000;
  double worst = 0;
  const auto run = [&](int first, int count) {
    for (int i = first; i < first + count; ++i) {
      const double error = step(i);
      if (!(error <= worst)) worst = error;  // NaN wins
    }
  };
  run(0, kWarmup);
  const long long before = resident_bytes();
  run(kWarmup, kSteps);
  const long long after = resident_bytes();
  std::printf("resident set %lld KiB before %d matrices, %lld KiB after\n", before / 1024, kSteps,
              after / 1024);
  EXPECT_EQ(worst, 0.0);
  // A leak of one matrix's arrays a step (about 80 KB) would add over 200 MB.
  EXPECT_LT(after - before, 16LL << 20) << "the resident set grew by " << (after - before) / 1024
                                        << " KiB over " << kSteps << " matrices";
}

}  // namespace
