// One application source for every backend of the build: what a Kokkos user writes once (a
// handle made, moved into a container and out of a function, used on two instances in turn)
// compiles and gives the same results whichever backend the execution space dispatches to: Kokkos
// Kernels on the host space, kspmv's CUDA kernels on Kokkos::Cuda when it is the default space.
// The handle's traits are asserted for each (handle_threads_test.cpp: two threads, a handle each).

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "instances.hpp"
#include "laplacian_application.hpp"

namespace {

using kspmv::testing::error_of;
using kspmv::testing::Laplacian;
using kspmv::testing::LaplacianHandle;
using kspmv::testing::poisoned;
using kspmv::testing::ramp;

// The promise of kspmv/handle.hpp, the same on every backend.
template <class Exec>
constexpr bool handle_traits_hold() {
  using H = LaplacianHandle<Exec>;
  static_assert(!std::is_copy_constructible_v<H>, "a handle is move-only on every backend");
  static_assert(!std::is_copy_assignable_v<H>, "a handle is move-only on every backend");
  static_assert(std::is_nothrow_move_constructible_v<H>, "moving a handle never throws");
  static_assert(std::is_nothrow_move_assignable_v<H>, "moving a handle never throws");
  static_assert(std::is_default_constructible_v<H>, "Algorithm::Auto by default");
  return true;
}

template <class Exec>
LaplacianHandle<Exec> handle_made_elsewhere() {
  LaplacianHandle<Exec> handle;
  handle.set_structure_check(true);
  return handle;  // moved out
}

// The application: handles in a vector, in an optional, returned from a function, reassigned.
template <class Exec>
void run_application(int n) {
  static_assert(handle_traits_hold<Exec>());
  const Laplacian<Exec> laplacian(n);
  const auto A = laplacian.view();
  const auto x = ramp<Exec>(n);
  const Exec exec;

  std::vector<LaplacianHandle<Exec>> handles;
  handles.push_back(handle_made_elsewhere<Exec>());
  handles.emplace_back(kspmv::Algorithm::Auto);
  std::optional<LaplacianHandle<Exec>> maybe;
  maybe.emplace();
  for (auto& handle : handles) {
    const auto y = poisoned<Exec>(n);
    kspmv::spmv(exec, &handle, "N", 1.0, A, x, 0.0, y);
    exec.fence();
    EXPECT_EQ(error_of(y), 0.0) << handle.describe();
    EXPECT_TRUE(handle.is_set_up());
  }
  LaplacianHandle<Exec> moved = std::move(handles.front());
  maybe = std::move(moved);  // a set-up handle assigned over an unused one
  const auto y = poisoned<Exec>(n);
  kspmv::spmv(exec, &*maybe, "N", 1.0, A, x, 0.0, y);
  exec.fence();
  EXPECT_EQ(error_of(y), 0.0) << maybe->describe();
}

// One handle on two instances in turn, each call's work fenced before the next: allowed.
template <class Exec>
void run_one_handle_on_two_instances(int n) {
  const Laplacian<Exec> laplacian(n);
  const auto A = laplacian.view();
  const auto x = ramp<Exec>(n);
  const Exec first;
  const Exec second = kspmv::testing::other_instance(first);
  LaplacianHandle<Exec> handle;
  for (int round = 0; round < 3; ++round) {
    for (const Exec* exec : {&first, &second}) {
      const auto y = poisoned<Exec>(n);
      kspmv::spmv(*exec, &handle, "N", 1.0, A, x, 0.0, y);
      kspmv::spmv(*exec, &handle, "T", 1.0, A, x, 0.0, y);  // A is symmetric
      exec->fence();
      EXPECT_EQ(error_of(y), 0.0) << "round " << round;
    }
  }
}

}  // namespace

TEST(OneProgramEverySpace, HandlesMoveAndWorkOnTheHostSpace) {
  run_application<Kokkos::DefaultHostExecutionSpace>(1000);
}

TEST(OneProgramEverySpace, HandlesMoveAndWorkOnTheDefaultSpace) {
  run_application<Kokkos::DefaultExecutionSpace>(100000);
}

TEST(OneProgramEverySpace, OneHandleServesTwoInstancesInTurn) {
  run_one_handle_on_two_instances<Kokkos::DefaultExecutionSpace>(100000);
}
