// Distinct handles are independent (kspmv/handle.hpp): two host threads, a handle and an
// instance each, calling at the same time, each get exact results. Where the default space's
// instances are not for concurrent threads (instances.hpp), the test says so and skips.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include "instances.hpp"
#include "laplacian_application.hpp"

namespace {

using kspmv::testing::error_of;
using kspmv::testing::Laplacian;
using kspmv::testing::LaplacianHandle;
using kspmv::testing::poisoned;
using kspmv::testing::ramp;

// Two threads, a handle and an instance each, calling at the same time: allowed.
template <class Exec>
void run_two_threads_two_handles(int n) {
  const Laplacian<Exec> laplacian(n);
  const auto A = laplacian.view();
  const auto x = ramp<Exec>(n);
  const Exec base;
  const Exec instances[2] = {base, kspmv::testing::other_instance(base)};
  double worst[2] = {-1, -1};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      LaplacianHandle<Exec> handle;
      double error = 0;
      for (int call = 0; call < 50; ++call) {
        const auto y = poisoned<Exec>(n);
        kspmv::spmv(instances[t], &handle, call % 2 ? "T" : "N", 1.0, A, x, 0.0, y);
        instances[t].fence();
        const double this_call = error_of(y);
        if (!(this_call <= error)) error = this_call;  // NaN wins
      }
      worst[t] = error;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(worst[0], 0.0);
  EXPECT_EQ(worst[1], 0.0);
}

}  // namespace

TEST(HandleThreads, TwoThreadsWithAHandleEach) {
  if (!kspmv::testing::instances_run_concurrently<Kokkos::DefaultExecutionSpace>()) {
    GTEST_SKIP() << Kokkos::DefaultExecutionSpace::name()
                 << " instances are not for concurrent host threads in this Kokkos";
  }
  run_two_threads_two_handles<Kokkos::DefaultExecutionSpace>(100000);
}
