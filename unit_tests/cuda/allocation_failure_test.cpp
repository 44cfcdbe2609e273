// Every device allocation the raw API makes, failed in turn through the fault-injection point
// (kspmv/detail/fault_injection.hpp): each failure reaches the caller as kspmv::out_of_memory
// carrying CUDA's error, a plan whose setup failed is not made, and a plan whose first transposed
// call failed gives, on its next call, bitwise the results of a plan that never failed.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "device_harness.hpp"
#include "kspmv/detail/fault_injection.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::cuda::testing {
namespace {

using Csr = HostCsr<double, std::int32_t, std::int32_t>;
using DoublePlan = Plan<double, std::int32_t, std::int32_t>;

// More allocations than any setup step makes: a step still failing after as many is a loop.
constexpr long long kMostAllocationsAStep = 200;

// Disarms the injection point however the test leaves.
struct Disarm {
  ~Disarm() { kspmv::detail::fail_allocation_after(-1); }
};

// step() with the allocation after `k` others failing, for k = 0, 1, ... until a step makes fewer
// than k + 1 allocations and succeeds: every failure must be a kspmv::out_of_memory, and
// after_failure() must hold after each. Returns how many allocations the step makes.
template <class Step, class AfterFailure>
long long fail_each_allocation(Step&& step, AfterFailure&& after_failure) {
  const Disarm disarm;
  for (long long k = 0; k < kMostAllocationsAStep; ++k) {
    kspmv::detail::fail_allocation_after(k);
    try {
      step();
      kspmv::detail::fail_allocation_after(-1);
      return k;
    } catch (const kspmv::out_of_memory& e) {
      kspmv::detail::fail_allocation_after(-1);
      EXPECT_EQ(e.cuda_error(), static_cast<int>(cudaErrorMemoryAllocation)) << e.what();
      EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos) << e.what();
      after_failure();
    }
  }
  ADD_FAILURE() << "the step still failed after " << kMostAllocationsAStep << " allocations";
  return kMostAllocationsAStep;
}

class CudaAllocationFailure : public SeededGpuTest {
 protected:
  Csr host = kspmv::testing::random_csr<double, std::int32_t, std::int32_t>(
      30000, 20000, kspmv::testing::RowShape{0, 24}, rng);
};

TEST_F(CudaAllocationFailure, EverySetupAllocationFailsCleanly) {
  const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
  for (const Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(to_string(algorithm));
    std::optional<DoublePlan> plan;
    const long long allocations = fail_each_allocation(
        [&] { plan.emplace(A.matrix(), algorithm, stream().get()); }, [&] { EXPECT_FALSE(plan); });
    EXPECT_GT(allocations, 0) << "a plan that allocates nothing tests nothing here";
    ASSERT_TRUE(plan);
    expect_same_results(
        host, Mode::NoTranspose, 1, kContiguous, stream(), rng, "after failed setups",
        [&](double alpha, auto x, double beta, auto y) {
          plan->apply(Mode::NoTranspose, alpha, A.matrix(), x, beta, y, stream().get());
        },
        [&](double alpha, auto x, double beta, auto y) {
          DoublePlan fresh(A.matrix(), algorithm, stream().get());
          fresh.apply(Mode::NoTranspose, alpha, A.matrix(), x, beta, y, stream().get());
          stream().synchronize();
        });
  }
}

// The first transposed call builds A^T's structure and what its form needs: each allocation of
// that build fails in turn, and the call after each failure must be right.
TEST_F(CudaAllocationFailure, EveryFirstTransposedCallAllocationFailsCleanly) {
  const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
  struct Case {
    TransposedForm form;
    bool deterministic;
  };
  for (const Case c : {Case{TransposedForm::Tiles, true}, Case{TransposedForm::Rows, true},
                       Case{TransposedForm::Products, true}, Case{TransposedForm::Auto, false}}) {
    SCOPED_TRACE(to_string(c.form) + (c.deterministic ? "" : ", determinism off"));
    PlanOptions options;
    options.transposed_form = c.form;
    options.deterministic = c.deterministic;
    DoublePlan plan(A.matrix(), Algorithm::Auto, stream().get(), options);
    const DeviceBlock<double> x(kspmv::testing::random_block<double>(host.num_rows, 1, rng),
                                kContiguous);
    const DeviceBlock<double> y(kspmv::testing::random_block<double>(host.num_cols, 1, rng),
                                kContiguous);
    const auto transposed_call = [&] {
      plan.apply(Mode::Transpose, 1.0, A.matrix(), x.const_block(), 0.0, y.block(), stream().get());
      stream().synchronize();
    };
    fail_each_allocation(transposed_call, [] {});
    if (!c.deterministic) {  // atomic sums: compared with the reference, not bit for bit
      EXPECT_EQ(
          check_apply(plan, A, host, Mode::Transpose, 1.5, -0.5, 1, kContiguous, kContiguous, rng),
          "");
      continue;
    }
    expect_same_results(
        host, Mode::Transpose, 1, kContiguous, stream(), rng, "after failed first transposed calls",
        [&](double alpha, auto xb, double beta, auto yb) {
          plan.apply(Mode::Transpose, alpha, A.matrix(), xb, beta, yb, stream().get());
        },
        [&](double alpha, auto xb, double beta, auto yb) {
          DoublePlan fresh(A.matrix(), Algorithm::Auto, stream().get(), options);
          fresh.apply(Mode::Transpose, alpha, A.matrix(), xb, beta, yb, stream().get());
          stream().synchronize();
        });
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
