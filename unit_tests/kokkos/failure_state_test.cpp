// What a failed call leaves behind (kspmv/handle.hpp): every exception is a kspmv::error; an
// argument or structure error changes neither y nor the handle's openness to settings; every
// allocation kspmv makes, failed in turn through the fault-injection point, reaches the caller as
// kspmv::out_of_memory, and the next call is right. On whichever backend the default space
// dispatches to: Kokkos Kernels' staging copies on a host space, the CUDA plan on Kokkos::Cuda.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

#include "kspmv/detail/fault_injection.hpp"
#include "laplacian_application.hpp"

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using kspmv::testing::error_of;
using kspmv::testing::Laplacian;
using kspmv::testing::LaplacianHandle;
using kspmv::testing::poisoned;
using kspmv::testing::ramp;
using Strided = Kokkos::View<double*, Kokkos::LayoutStride, Exec::memory_space>;

constexpr int kRows = 20000;
// More allocations than any call makes: a call still failing after as many is a loop.
constexpr long long kMostAllocationsACall = 200;

// Every y entry still NaN: the call wrote nothing.
template <class View>
bool untouched(const View& y) {
  const auto host = kspmv::testing::host_copy(y);
  for (std::size_t i = 0; i < host.extent(0); ++i) {
    if (!std::isnan(host(i))) return false;
  }
  return true;
}

// Column 0 of an n x 2 LayoutRight block: a strided vector, which the Kokkos Kernels backend
// stages through a contiguous copy.
Strided strided_column(int n) {
  const Kokkos::View<double**, Kokkos::LayoutRight, Exec::memory_space> block("block", n, 2);
  Kokkos::deep_copy(block, std::nan(""));
  return Kokkos::subview(block, Kokkos::ALL, 0);
}

// x = (1, 2, ..., n) as column 0 of an n x 2 LayoutRight block (filled through the whole block:
// Kokkos has no deep_copy into a strided View from a contiguous one on every space).
Strided strided_ramp(int n) {
  const Kokkos::View<double**, Kokkos::LayoutRight, Exec::memory_space> block("block", n, 2);
  const auto host = Kokkos::create_mirror_view(block);
  for (int i = 0; i < n; ++i) {
    host(i, 0) = i + 1;
    host(i, 1) = std::nan("");
  }
  Kokkos::deep_copy(block, host);
  return Kokkos::subview(block, Kokkos::ALL, 0);
}

struct Disarm {
  ~Disarm() { kspmv::detail::fail_allocation_after(-1); }
};

TEST(FailureState, ArgumentErrorsAreKspmvErrorsAndLeaveYAndTheHandleAlone) {
  const Laplacian<Exec> laplacian(kRows);
  const auto A = laplacian.view();
  const auto x = ramp<Exec>(kRows + 1);
  const auto y = poisoned<Exec>(kRows);
  LaplacianHandle<Exec> handle;
  try {
    kspmv::spmv(Exec(), &handle, "N", 1.0, A, x, 0.0, y);
    FAIL() << "no exception for x of " << kRows + 1 << " rows";
  } catch (const kspmv::error& e) {
    EXPECT_NE(dynamic_cast<const kspmv::dimension_mismatch*>(&e), nullptr) << e.what();
    EXPECT_NE(dynamic_cast<const std::invalid_argument*>(&e), nullptr) << e.what();
  }
  EXPECT_TRUE(untouched(y));
  EXPECT_NO_THROW(handle.set_compression(kspmv::Compression::Never));
}

TEST(FailureState, AMalformedFirstCallLeavesTheHandleNew) {
  const Laplacian<Exec> laplacian(kRows);
  const auto A = laplacian.view();
  const auto x = ramp<Exec>(kRows);
  const auto y = poisoned<Exec>(kRows);
  Kokkos::deep_copy(Kokkos::subview(laplacian.entries, 7), kRows + 3);  // a column out of range
  LaplacianHandle<Exec> handle;
  EXPECT_THROW(kspmv::spmv(Exec(), &handle, "N", 1.0, A, x, 0.0, y), kspmv::malformed_matrix);
  EXPECT_TRUE(untouched(y));
  EXPECT_FALSE(handle.is_set_up());
  EXPECT_NO_THROW(handle.set_structure_check(true)) << "a failed setup leaves the settings open";

  Kokkos::deep_copy(Kokkos::subview(laplacian.entries, 7), 3);  // row 2's column 3, as it was
  kspmv::spmv(Exec(), &handle, "N", 1.0, A, x, 0.0, y);
  Exec().fence();
  EXPECT_EQ(error_of(y), 0.0);
  EXPECT_TRUE(handle.is_set_up());
}

// call(handle, y) with the allocation after `k` others failing, for k = 0, 1, ... until the call
// succeeds; each failure must be a kspmv::out_of_memory (a kspmv::device_error and a
// std::runtime_error), after which the same handle's next call is exact. Returns the number of
// allocations of the first call.
template <class Call>
long long fail_each_allocation(const Call& call) {
  const Disarm disarm;
  const auto x_rows = kRows;
  for (long long k = 0; k < kMostAllocationsACall; ++k) {
    LaplacianHandle<Exec> handle;
    const Strided y = strided_column(x_rows);
    kspmv::detail::fail_allocation_after(k);
    try {
      call(handle, y);
      kspmv::detail::fail_allocation_after(-1);
      Exec().fence();
      EXPECT_EQ(error_of(y), 0.0) << "the call that allocated all it needed";
      return k;
    } catch (const kspmv::out_of_memory& e) {
      kspmv::detail::fail_allocation_after(-1);
      EXPECT_NE(dynamic_cast<const std::runtime_error*>(&e), nullptr);
      EXPECT_NE(std::string(e.what()).find("memory"), std::string::npos) << e.what();
    }
    const Strided retry = strided_column(x_rows);
    call(handle, retry);
    Exec().fence();
    EXPECT_EQ(error_of(retry), 0.0) << "the call after allocation " << k << " failed";
  }
  ADD_FAILURE() << "calls still failed after " << kMostAllocationsACall << " allocations";
  return kMostAllocationsACall;
}

TEST(FailureState, EveryAllocationOfAFirstCallFailsCleanly) {
  const Laplacian<Exec> laplacian(kRows);
  const auto A = laplacian.view();
  const Strided x = strided_ramp(kRows);
  for (const char* mode : {"N", "T"}) {
    SCOPED_TRACE(std::string("mode ") + mode);
    const long long allocations =
        fail_each_allocation([&](LaplacianHandle<Exec>& handle, const Strided& y) {
          kspmv::spmv(Exec(), &handle, mode, 1.0, A, x, 0.0, y);
        });
    EXPECT_GT(allocations, 0) << "a call that allocates nothing tests nothing here";
  }
}

TEST(FailureState, EveryAllocationOfACallWithoutHandleFailsCleanly) {
  const Laplacian<Exec> laplacian(kRows);
  const auto A = laplacian.view();
  const Strided x = strided_ramp(kRows);
  const long long allocations = fail_each_allocation([&](LaplacianHandle<Exec>&, const Strided& y) {
    kspmv::spmv(Exec(), "T", 1.0, A, x, 0.0, y);
  });
  EXPECT_GT(allocations, 0) << "a call that allocates nothing tests nothing here";
}

}  // namespace
