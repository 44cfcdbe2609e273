// The plan's contract beyond single results: bitwise reproducibility, reuse across calls and
// changed values, Auto's choice, and clear errors.

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>

#include "device_harness.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;
using Csr = HostCsr<double, std::int32_t, std::int32_t>;

// Power-law-like rows (many short, a few thousands long) so that rows span blocks and tiles.
Csr skewed_matrix(std::mt19937_64& rng) {
  Csr A = random_csr<double, std::int32_t, std::int32_t>(20000, 20000, RowShape{0, 6}, rng);
  Csr B;
  B.num_rows = A.num_rows;
  B.num_cols = A.num_cols;
  for (std::int64_t i = 0; i < A.num_rows; ++i) {
    const std::int64_t extra = i % 997 == 0 ? 3000 + i % 5000 : 0;
    for (auto e = A.row_map[i]; e < A.row_map[i + 1]; ++e) {
      B.entries.push_back(A.entries[e]);
      B.values.push_back(A.values[e]);
    }
    for (std::int64_t k = 0; k < extra; ++k) {
      B.entries.push_back(static_cast<std::int32_t>((k * 3 + i) % B.num_cols));
      B.values.push_back(kspmv::testing::random_value<double>(rng));
    }
    B.row_map.push_back(static_cast<std::int32_t>(B.entries.size()));
  }
  return B;
}

// `call(y)` 100 times on a zeroed y (A's row count by `vectors`): every result must equal the first
// bit for bit.
template <class Call>
void expect_hundred_identical_calls(const Csr& host, std::int64_t vectors, Layout layout,
                                    Call&& call) {
  const Block<double> y0{host.num_rows, vectors, std::vector<double>(host.num_rows * vectors, 0.0)};
  std::vector<double> first;
  for (int i = 0; i < 100; ++i) {
    const DeviceBlock<double> y(y0, layout);
    call(y.block());
    bool outside_untouched = false;
    const auto got = y.download(outside_untouched).data;
    if (i == 0) {
      first = got;
    } else if (std::memcmp(first.data(), got.data(), first.size() * sizeof(double)) != 0) {
      FAIL() << "call " << i << " differs from the first";
    }
  }
}

// 100 calls of a fresh plan for `algorithm` in `mode` (see expect_hundred_identical_calls); returns
// the plan's description.
std::string expect_hundred_identical_plan_calls(
    const Csr& host, const DeviceCsr<double, std::int32_t, std::int32_t>& A, Algorithm algorithm,
    Mode mode, const DeviceBlock<double>& x, std::int64_t vectors, Layout layout,
    cudaStream_t stream) {
  Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), algorithm, stream);
  expect_hundred_identical_calls(host, vectors, layout, [&](const DenseBlock<double>& y) {
    plan.apply(mode, 1.5, A.matrix(), x.const_block(), 0.0, y, stream);
  });
  return plan.describe();
}

// f(vectors, layout, x) for one vector and for three in LayoutRight, x random (length n) on the
// device.
template <class F>
void for_one_and_three_vectors(std::int64_t n, std::mt19937_64& rng, F&& f) {
  for (const std::int64_t vectors : {1, 3}) {
    const Layout layout{vectors > 1, 0, 0};
    const DeviceBlock<double> x(random_block<double>(n, vectors, rng), layout);
    f(vectors, layout, x);
  }
}

// A fresh seed (printed with any failure), the skewed matrix on the host and the device.
class SkewedRows : public ::testing::Test {
 protected:
  void SetUp() override {
    KSPMV_SKIP_WITHOUT_GPU();
    trace_.emplace(__FILE__, __LINE__, seed_message(seed));
    device_.emplace(host);
  }
  std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng{seed};
  Csr host = skewed_matrix(rng);
  const DeviceCsr<double, std::int32_t, std::int32_t>& A() const { return device_.value(); }

 private:
  std::optional<::testing::ScopedTrace> trace_;
  std::optional<DeviceCsr<double, std::int32_t, std::int32_t>> device_;  // made after the GPU check
};
using CudaPlanOnSkewedRows = SkewedRows;
using CudaWithoutPlan = SkewedRows;

// One vector, and three in LayoutRight (the long rows shared out in chunks).
TEST_F(CudaPlanOnSkewedRows, HundredCallsAreBitwiseIdentical) {
  Stream stream;
  for_one_and_three_vectors(
      host.num_cols, rng, [&](std::int64_t vectors, Layout layout, const DeviceBlock<double>& x) {
        for (const Algorithm algorithm : kAlgorithms) {
          for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
            SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode) + ", " +
                         std::to_string(vectors) + " vectors");
            expect_hundred_identical_plan_calls(host, A(), algorithm, mode, x, vectors, layout,
                                                stream.get());
          }
        }
        for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
          SCOPED_TRACE(std::string("without a plan, mode ") + to_string(mode));
          expect_hundred_identical_calls(host, vectors, layout, [&](const DenseBlock<double>& y) {
            apply_without_plan(mode, 1.5, A().matrix(), x.const_block(), 0.0, y, stream.get());
          });
        }
      });
}

// A symmetric pattern: transposed calls run A's own plan over A's structure with the values
// gathered from their mirrors, for one vector and for 3 in LayoutRight.
TEST_F(CudaPlanOnSkewedRows, HundredMirroredTransposedCallsAreBitwiseIdentical) {
  const Csr symmetric = kspmv::testing::symmetric_pattern_csr<double, std::int32_t, std::int32_t>(
      3000, RowShape{0, 60}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> device(symmetric);
  Stream stream;
  for_one_and_three_vectors(
      symmetric.num_rows, rng,
      [&](std::int64_t vectors, Layout layout, const DeviceBlock<double>& x) {
        for (const Algorithm algorithm : kAlgorithms) {
          SCOPED_TRACE(to_string(algorithm) + ", " + std::to_string(vectors) + " vectors");
          const std::string described = expect_hundred_identical_plan_calls(
              symmetric, device, algorithm, Mode::Transpose, x, vectors, layout, stream.get());
          EXPECT_NE(described.find("pattern is symmetric"), std::string::npos) << described;
        }
      });
}

// Rows of similar length: rank-2 calls run the kernel that multiplies a group of vectors at once
// (3 and 12 vectors, rows longer than a group's batch of entries), in both layouts.
TEST_F(CudaPlanOnSkewedRows, HundredGroupedCallsOnRegularRowsAreBitwiseIdentical) {
  const Csr regular =
      random_csr<double, std::int32_t, std::int32_t>(5000, 4000, RowShape{10, 50}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> device(regular);
  Stream stream;
  for (const std::int64_t vectors : {3, 12}) {
    for (const bool right : {false, true}) {
      const Layout layout{right, 0, 0};
      const auto x = random_block<double>(regular.num_cols, vectors, rng);
      const DeviceBlock<double> x_device(x, layout);
      for (const Algorithm algorithm : kAlgorithms) {
        SCOPED_TRACE(to_string(algorithm) + ", " + std::to_string(vectors) + " vectors, " +
                     (right ? "LayoutRight" : "LayoutLeft"));
        expect_hundred_identical_plan_calls(regular, device, algorithm, Mode::NoTranspose, x_device,
                                            vectors, layout, stream.get());
      }
    }
  }
}

// Past the latency bound (2^20 entries) LayoutLeft x is read through the plan's row-major copy:
// 3 vectors, every algorithm (MergePath without the copy).
TEST_F(CudaPlanOnSkewedRows, HundredLayoutLeftCallsThroughARowMajorCopyAreBitwiseIdentical) {
  const Csr large =
      random_csr<double, std::int32_t, std::int32_t>(40000, 36000, RowShape{22, 32}, rng);
  ASSERT_GE(large.num_entries(), std::int64_t{1} << 20);
  const DeviceCsr<double, std::int32_t, std::int32_t> device(large);
  Stream stream;
  const Layout left{false, 0, 0};
  const DeviceBlock<double> x(random_block<double>(large.num_cols, 3, rng), left);
  for (const Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(to_string(algorithm));
    const std::string described = expect_hundred_identical_plan_calls(
        large, device, algorithm, Mode::NoTranspose, x, 3, left, stream.get());
    EXPECT_EQ(described.find("LayoutLeft through a row-major copy of x") != std::string::npos,
              algorithm != Algorithm::MergePath)
        << described;
  }
}

TEST_F(CudaPlanOnSkewedRows, ReusedAcrossCallsWithOtherVectorsAndValues) {
  Stream stream;
  for (const Algorithm algorithm : kAlgorithms) {
    SCOPED_TRACE(to_string(algorithm));
    Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), algorithm, stream.get());
    for (int call = 0; call < 3; ++call) {
      for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
        EXPECT_EQ(check_apply(plan, A(), host, mode, 0.5 + call, call == 1 ? 0.0 : -2.0, 1 + call,
                              kContiguous, kContiguous, rng),
                  "");
      }
    }
  }
  // New values in the same structure: a plan (and its transposed copy) stays valid.
  Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), Algorithm::Auto, stream.get());
  EXPECT_EQ(
      check_apply(plan, A(), host, Mode::Transpose, 1.0, 0.0, 1, kContiguous, kContiguous, rng),
      "");
  for (auto& v : host.values) v = -3 * v + 1;
  A().upload_values(host.values);
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    EXPECT_EQ(check_apply(plan, A(), host, mode, 1.0, 0.0, 1, kContiguous, kContiguous, rng), "");
  }
}

TEST_F(CudaPlanOnSkewedRows, ValuesDeclaredConstantAreRefreshedWhenDeclaredChanged) {
  Stream stream;
  Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), Algorithm::Auto, stream.get());
  const auto transposed_call_is_right = [&] {
    return check_apply(plan, A(), host, Mode::Transpose, 1.5, 0.0, 1, kContiguous, kContiguous,
                       rng);
  };
  const auto new_values = [&] {
    for (auto& v : host.values) v = kspmv::testing::random_value<double>(rng);
    A().upload_values(host.values);
  };
  plan.set_values_constant(true);
  EXPECT_EQ(transposed_call_is_right(), "");
  const double setup_with_transposed = plan.setup_seconds();
  new_values();
  plan.values_changed();
  EXPECT_EQ(transposed_call_is_right(), "");
  EXPECT_EQ(transposed_call_is_right(), "");  // the copy kept
  plan.set_values_constant(false);
  new_values();
  EXPECT_EQ(transposed_call_is_right(), "");  // read in place again
  plan.set_values_constant(true);
  EXPECT_EQ(transposed_call_is_right(), "");  // a fresh copy
  EXPECT_EQ(plan.setup_seconds(), setup_with_transposed);
}

TEST_F(CudaPlanOnSkewedRows, FirstTransposedCallJoinsSetupTime) {
  Stream stream;
  Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), Algorithm::Auto, stream.get());
  const double planned = plan.setup_seconds();
  EXPECT_EQ(
      check_apply(plan, A(), host, Mode::NoTranspose, 1.0, 0.0, 1, kContiguous, kContiguous, rng),
      "");
  EXPECT_EQ(plan.setup_seconds(), planned);
  EXPECT_EQ(check_apply(plan, A(), host, Mode::ConjugateTranspose, 1.0, 0.0, 1, kContiguous,
                        kContiguous, rng),
            "");
  EXPECT_GT(plan.setup_seconds(), planned);
}

// describe() names the kernel and what chose it; A^T's plan and memory join after a transposed
// call.
TEST_F(CudaPlanOnSkewedRows, DescribesItselfAndCountsItsMemory) {
  Stream stream;
  Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), Algorithm::Auto, stream.get());
  const std::string planned = plan.describe();
  EXPECT_EQ(planned.rfind(to_string(plan.algorithm()) + " (chosen by Auto)", 0), 0u) << planned;
  EXPECT_NE(planned.find("irregular rows"), std::string::npos) << planned;
  EXPECT_NE(planned.find("several vectors"), std::string::npos) << planned;
  EXPECT_NE(planned.find("shared out in"), std::string::npos) << planned;  // rows of 3000 and more
  EXPECT_EQ(planned.find("A^T"), std::string::npos) << planned;
  const std::size_t bytes = plan.workspace_bytes();
  EXPECT_GT(bytes, 0u);
  EXPECT_EQ(
      check_apply(plan, A(), host, Mode::Transpose, 1.0, 0.0, 1, kContiguous, kContiguous, rng),
      "");
  EXPECT_NE(plan.describe().find("A^T built"), std::string::npos) << plan.describe();
  // A^T's row map, rows and source positions at least.
  EXPECT_GE(plan.workspace_bytes(),
            bytes + static_cast<std::size_t>(host.num_cols + 1 + 2 * host.num_entries()) *
                        sizeof(std::int32_t));
}

class CudaPlanAnalysis : public SeededGpuTest {};

// The analysis counts the steps Vector's warps would take, each as many as its longest row needs
// (describe() reports them on irregular rows as the fill of the warps' load slots, 32 x 4 a step).
TEST_F(CudaPlanAnalysis, CountsTheStepsOfVectorsWarps) {
  // 4099 rows of 8 but row 0 of 1000 (mean 8.24: 4 lanes of 4 entries a row, 8 rows a warp): 63
  // steps in the first warp, one in each of the other 512 (the last holds 3 rows): 33,784 entries
  // in 575 x 128 slots, 46%.
  const Csr few = kspmv::testing::csr_with_row_lengths<double, std::int32_t, std::int32_t>(
      4099, 4099, [](std::int64_t i) { return i == 0 ? std::int64_t{1000} : std::int64_t{8}; }, 7,
      rng);
  // Past one pass of the analysis' grid (2^20 rows): 1,100,003 rows of 3, 1, 1, ... but row 5 of
  // 500 (mean 1.67: 2 lanes of 4 entries, 16 rows a warp): 68,751 warps, the first of 63 steps,
  // 1,833,838 entries in 68,813 x 128 slots, 21%.
  const Csr many = kspmv::testing::csr_with_row_lengths<double, std::int32_t, std::int32_t>(
      1'100'003, 1'100'003,
      [](std::int64_t i) {
        return i == 5 ? std::int64_t{500} : i % 3 == 0 ? std::int64_t{3} : std::int64_t{1};
      },
      7, rng);
  for (const auto& [host, fill] : {std::pair{&few, "46%"}, std::pair{&many, "21%"}}) {
    const DeviceCsr<double, std::int32_t, std::int32_t> device(*host);
    Plan<double, std::int32_t, std::int32_t> plan(device.matrix(), Algorithm::Adaptive,
                                                  stream().get());
    const std::string text = plan.describe();
    EXPECT_NE(text.find(std::string("(irregular rows; Vector's warps would fill ") + fill +
                        " of their load slots)"),
              std::string::npos)
        << text;
  }
}

// describe() names the launch policy in use: the device's own, or the one KSPMV_CUDA_POLICY
// selects (how the sm_80 policy's paths are run on a Hopper GPU).
TEST_F(CudaPlanOnSkewedRows, NamesTheLaunchPolicyInUse) {
  int device = 0;
  int major = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
  const char* forced = std::getenv("KSPMV_CUDA_POLICY");
  const bool ampere = forced != nullptr && *forced != '\0'
                          ? std::string(forced).find("80") != std::string::npos
                          : major == 8;
  Stream stream;
  Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), Algorithm::Auto, stream.get());
  const std::string text = plan.describe();
  const std::size_t at = text.find("; launch policy ");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.compare(at, 22, ampere ? "; launch policy sm_80 " : "; launch policy sm_90 "), 0)
      << text;
  // The code the kernels run is machine code for this device, whichever code the build held.
  int minor = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), cudaSuccess);
  EXPECT_NE(text.find("; kernels run sm_" + std::to_string(10 * major + minor) + " code"),
            std::string::npos)
      << text;
  std::printf("launch policy in use on compute capability %d.%d: %s\n", major, minor,
              text.substr(at + 16).c_str());
}

// Same sizes, same arrays, rows redistributed: a long row (so Auto caches Adaptive) that moves. In
// mode N the cached plan is right for either; in mode T its A^T is made again.
TEST_F(CudaWithoutPlan, CachedPlanStaysRightForAnotherStructureInTheSameArrays) {
  const auto first = kspmv::testing::one_dense_row_csr<double, std::int32_t, std::int32_t>(
      3000, 2000, 0, 150000, 3, rng);
  const auto second = kspmv::testing::one_dense_row_csr<double, std::int32_t, std::int32_t>(
      3000, 2000, 2999, 150000, 3, rng);
  ASSERT_EQ(first.num_entries(), second.num_entries());
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    SCOPED_TRACE(std::string("mode ") + to_string(mode));
    DeviceCsr<double, std::int32_t, std::int32_t> B(first);
    Stream stream;
    const auto check_once = [&](const Csr& current) {
      // One stream for every call, so that each finds the first one's plan.
      const std::int64_t x_rows = is_transposed(mode) ? current.num_rows : current.num_cols;
      const std::int64_t y_rows = is_transposed(mode) ? current.num_cols : current.num_rows;
      const auto x = random_block<double>(x_rows, 1, rng);
      const Block<double> y0{y_rows, 1, std::vector<double>(y_rows, 0.0)};
      const auto expected = reference::spmv(mode, 1.0, kspmv::testing::arrays(current), x, 0.0, y0);
      const DeviceBlock<double> x_device(x, kContiguous);
      const DeviceBlock<double> y(y0, kContiguous);
      apply_without_plan(mode, 1.0, B.matrix(), x_device.const_block(), 0.0, y.block(),
                         stream.get());
      stream.synchronize();
      bool outside_untouched = false;
      return reference::compare(expected, y.download(outside_untouched));
    };
    EXPECT_EQ(check_once(first), "");
    B.upload(second);
    EXPECT_EQ(check_once(second), "");
    B.upload(first);
    EXPECT_EQ(check_once(first), "");
  }
}

// A transposed call without a plan waits for the stream: refused while it is captured, before it
// enqueues anything, so the capture goes on.
TEST_F(CudaWithoutPlan, TransposedCallRefusesCaptureAndLeavesItIntact) {
  Stream stream;
  const DeviceBlock<double> x(random_block<double>(host.num_rows, 1, rng), kContiguous);
  const DeviceBlock<double> y(
      Block<double>{host.num_cols, 1, std::vector<double>(host.num_cols, 0.0)}, kContiguous);
  apply_without_plan(Mode::Transpose, 1.0, A().matrix(), x.const_block(), 0.0, y.block(),
                     stream.get());  // a cached plan exists: still refused
  ASSERT_EQ(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal), cudaSuccess);
  try {
    apply_without_plan(Mode::Transpose, 1.0, A().matrix(), x.const_block(), 0.0, y.block(),
                       stream.get());
    ADD_FAILURE() << "a captured transposed call without a plan was not refused";
  } catch (const kspmv::unsupported_argument& error) {
    EXPECT_NE(std::string(error.what()).find("mode T or H without a plan"), std::string::npos)
        << error.what();
  }
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(cudaStreamEndCapture(stream.get(), &graph), cudaSuccess);
  if (graph != nullptr) cudaGraphDestroy(graph);
}

TEST_F(CudaWithoutPlan, CachedPlanCallIsCapturable) {
  Stream stream;
  const auto x = random_block<double>(host.num_cols, 1, rng);
  const Block<double> y0{host.num_rows, 1, std::vector<double>(host.num_rows, 0.0)};
  const DeviceBlock<double> x_device(x, kContiguous);
  const DeviceBlock<double> y(y0, kContiguous);
  const auto call = [&] {
    apply_without_plan(Mode::NoTranspose, 2.0, A().matrix(), x_device.const_block(), 0.0, y.block(),
                       stream.get());
  };
  call();  // makes and caches the plan
  y.upload(y0);
  capture_and_replay(stream.get(), call);
  bool outside_untouched = false;
  EXPECT_EQ(reference::compare(
                reference::spmv(Mode::NoTranspose, 2.0, kspmv::testing::arrays(host), x, 0.0, y0),
                y.download(outside_untouched)),
            "");
  EXPECT_TRUE(outside_untouched);
}

TEST_F(CudaPlanOnSkewedRows, AutoChoosesAKernelAndRecordsSetupTime) {
  Stream stream;
  const Plan<double, std::int32_t, std::int32_t> plan(A().matrix(), Algorithm::Auto, stream.get());
  EXPECT_NE(plan.algorithm(), Algorithm::Auto);
  EXPECT_NE(plan.algorithm(), Algorithm::KokkosKernels);
  EXPECT_GT(plan.setup_seconds(), 0.0);
  const Plan<double, std::int32_t, std::int32_t> forced(A().matrix(), Algorithm::Scalar,
                                                        stream.get());
  EXPECT_EQ(forced.algorithm(), Algorithm::Scalar);
}

TEST(CudaPlan, MismatchedOperandsAreRejected) {
  KSPMV_SKIP_WITHOUT_GPU();
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937_64 rng(seed);
  const Csr host = random_csr<double, std::int32_t, std::int32_t>(50, 40, RowShape{1, 5}, rng);
  const Csr other = random_csr<double, std::int32_t, std::int32_t>(50, 40, RowShape{1, 5}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
  const DeviceCsr<double, std::int32_t, std::int32_t> B(other);
  Stream stream;
  Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream.get());
  const DeviceBlock<double> x(random_block<double>(40, 1, rng), kContiguous);
  const DeviceBlock<double> y(random_block<double>(50, 1, rng), kContiguous);
  const DeviceBlock<double> y_short(random_block<double>(49, 1, rng), kContiguous);
  EXPECT_THROW(
      plan.apply(Mode::NoTranspose, 1.0, B.matrix(), x.const_block(), 0.0, y.block(), stream.get()),
      unsupported_argument);
  EXPECT_THROW(plan.apply(Mode::NoTranspose, 1.0, A.matrix(), x.const_block(), 0.0, y_short.block(),
                          stream.get()),
               dimension_mismatch);
  EXPECT_THROW(
      plan.apply(Mode::Transpose, 1.0, A.matrix(), x.const_block(), 0.0, y.block(), stream.get()),
      dimension_mismatch);
}

}  // namespace
}  // namespace kspmv::cuda::testing
