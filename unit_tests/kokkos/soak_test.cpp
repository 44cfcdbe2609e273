// Long runs must keep memory bounded. A time stepper that rebuilds its matrix calls spmv without a
// handle on thousands of matrices: what such calls keep is bounded by design (the Kokkos Kernels
// backend remembers the last 64 checked structures, holding at most 64 MiB of their arrays; the
// CUDA backend caches at most 16 plans per type). A solver keeps one handle for thousands of calls
// whose values change each time. After a warm-up neither the host's resident set nor (on
// Kokkos::Cuda) the device memory in use may grow with the number of calls. Every product is
// checked against the exact answer.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

#include "laplacian_application.hpp"
#include "memory_in_use.hpp"

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using kspmv::testing::device_bytes_in_use;
using kspmv::testing::error_of;
using kspmv::testing::Laplacian;
using kspmv::testing::LaplacianHandle;
using kspmv::testing::poisoned;
using kspmv::testing::ramp;
using kspmv::testing::resident_bytes;

constexpr int kWarmup = 200;
constexpr int kSteps = 3000;
// A leak of one small matrix's arrays a step (about 80 KB) would add over 200 MB.
constexpr long long kMostGrowth = 16LL << 20;

// `step(i)` for i in [0, kWarmup + kSteps), each returning its product's error; the memory after
// the warm-up and at the end must not differ by more than kMostGrowth.
void expect_bounded(const std::string& what, const std::function<double(int)>& step) {
  double worst = 0;
  const auto run = [&](int first, int count) {
    for (int i = first; i < first + count; ++i) {
      const double error = step(i);
      if (!(error <= worst)) worst = error;  // NaN wins
    }
  };
  run(0, kWarmup);
  Exec().fence();
  const long long host_before = resident_bytes();
  const long long device_before = device_bytes_in_use();
  run(kWarmup, kSteps);
  Exec().fence();
  const long long host_after = resident_bytes();
  const long long device_after = device_bytes_in_use();
  std::printf("%s: resident set %lld KiB before %d calls, %lld KiB after", what.c_str(),
              host_before / 1024, kSteps, host_after / 1024);
  if (device_before >= 0) {
    std::printf("; device memory in use %lld KiB before, %lld KiB after", device_before / 1024,
                device_after / 1024);
  }
  std::printf("\n");
  EXPECT_EQ(worst, 0.0) << what;
  EXPECT_LT(host_after - host_before, kMostGrowth)
      << what << ": the resident set grew by " << (host_after - host_before) / 1024 << " KiB";
  EXPECT_LT(device_after - device_before, kMostGrowth)
      << what << ": device memory in use grew by " << (device_after - device_before) / 1024
      << " KiB";
}

TEST(Soak, ThousandsOfMatricesWithoutHandleKeepMemoryBounded) {
  // A new matrix each step (its size varying, so that allocations differ), a call without a
  // handle, the matrix freed.
  expect_bounded("calls without a handle", [](int index) {
    const int n = 2000 + index % 97;
    const Laplacian<Exec> laplacian(n);
    const auto x = ramp<Exec>(n);
    const auto y = poisoned<Exec>(n);
    kspmv::spmv(Exec(), index % 2 ? "T" : "N", 1.0, laplacian.view(), x, 0.0, y);
    Exec().fence();
    return error_of(y);
  });
}

// One handle for every call, A's values changed in place before each (alternately A and 2A, alpha
// compensating exactly), modes N and T; and a handle whose values are declared constant, told after
// each change (its transposed copy refreshed).
TEST(Soak, ALongLivedHandleWithChangingValuesKeepsMemoryBounded) {
  constexpr int n = 20000;
  const Laplacian<Exec> laplacian(n);
  const auto A = laplacian.view();
  const decltype(laplacian.values) original("original", laplacian.values.extent(0));
  const decltype(laplacian.values) doubled("doubled", laplacian.values.extent(0));
  Kokkos::deep_copy(original, laplacian.values);
  const auto host = Kokkos::create_mirror(original);  // a copy of its own, also on the host
  Kokkos::deep_copy(host, original);
  for (std::size_t k = 0; k < host.extent(0); ++k) host(k) *= 2;
  Kokkos::deep_copy(doubled, host);
  const auto x = ramp<Exec>(n);
  const auto y = poisoned<Exec>(n);
  for (const bool constant : {false, true}) {
    LaplacianHandle<Exec> handle;
    handle.set_values_constant(constant);
    expect_bounded(
        constant ? "a handle with values declared constant" : "a handle", [&](int index) {
          const bool twice = index % 2 == 1;
          Kokkos::deep_copy(laplacian.values, twice ? doubled : original);
          if (constant) handle.values_changed();
          Kokkos::deep_copy(y, std::nan(""));
          kspmv::spmv(Exec(), &handle, index % 4 < 2 ? "N" : "T", twice ? 0.5 : 1.0, A, x, 0.0, y);
          Exec().fence();
          return error_of(y);
        });
  }
}

}  // namespace
