// Calls captured in a CUDA graph and replayed: a planned call in every mode (once its plan is set
// up, transposed structure included) and a call without a plan in modes N and C must neither
// synchronise nor allocate, and a replay must read the x and values the arrays hold at that time.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::random_value;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;
using Scalar = std::complex<double>;
using Csr = HostCsr<Scalar, std::int32_t, std::int64_t>;

// One captured call: its operands on the device, and what the reference makes of them.
struct CapturedCall {
  Mode mode;
  bool planned;
  Scalar alpha;
  Scalar beta;
  Block<Scalar> x;
  Block<Scalar> y;
  DeviceBlock<Scalar> x_device;
  DeviceBlock<Scalar> y_device;
};

TEST(CudaGraphCapture, ReplaysWithNewVectorsAndValues) {
  KSPMV_SKIP_WITHOUT_GPU();
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937_64 rng(seed);
  Csr host = random_csr<Scalar, std::int32_t, std::int64_t>(3000, 2200, RowShape{0, 40}, rng);
  const DeviceCsr<Scalar, std::int32_t, std::int64_t> A(host);
  Stream stream;
  Plan<Scalar, std::int32_t, std::int64_t> plan(A.matrix(), Algorithm::Auto, stream.get());

  // Every mode through the plan, rank 1 and rank 2 (a padded LayoutRight block); N and C without.
  std::vector<std::unique_ptr<CapturedCall>> calls;
  const auto add = [&](Mode mode, bool planned, std::int64_t vectors, Layout layout) {
    const std::int64_t in_rows = is_transposed(mode) ? host.num_rows : host.num_cols;
    const std::int64_t out_rows = is_transposed(mode) ? host.num_cols : host.num_rows;
    auto x = random_block<Scalar>(in_rows, vectors, rng);
    auto y = random_block<Scalar>(out_rows, vectors, rng);
    const Scalar beta = calls.size() % 2 == 0 ? Scalar(0) : random_value<Scalar>(rng);
    calls.emplace_back(new CapturedCall{mode, planned, random_value<Scalar>(rng), beta, x, y,
                                        DeviceBlock<Scalar>(x, layout),
                                        DeviceBlock<Scalar>(y, layout)});
  };
  for (const Mode mode : kModes) {
    add(mode, true, 1, kContiguous);
    add(mode, true, 2, Layout{true, 1, 0});
  }
  add(Mode::NoTranspose, false, 1, kContiguous);
  add(Mode::Conjugate, false, 3, Layout{true, 1, 0});

  // The first transposed call builds A^T's structure (it synchronises): outside the capture.
  plan.apply(Mode::Transpose, Scalar(1), A.matrix(), calls[2]->x_device.const_block(), Scalar(0),
             calls[2]->y_device.block(), stream.get());
  stream.synchronize();

  const CapturedGraph graph(stream.get(), [&] {
    for (const auto& call : calls) {
      if (call->planned) {
        plan.apply(call->mode, call->alpha, A.matrix(), call->x_device.const_block(), call->beta,
                   call->y_device.block(), stream.get());
      } else {
        apply_without_plan(call->mode, call->alpha, A.matrix(), call->x_device.const_block(),
                           call->beta, call->y_device.block(), stream.get());
      }
    }
  });

  for (int replay = 0; replay < 3; ++replay) {
    SCOPED_TRACE("replay " + std::to_string(replay));
    for (auto& v : host.values) v = random_value<Scalar>(rng);
    A.upload_values(host.values);
    for (const auto& call : calls) {
      call->x = random_block<Scalar>(call->x.n, call->x.k, rng);
      call->y = random_block<Scalar>(call->y.n, call->y.k, rng);
      if (call->beta == Scalar(0)) {
        std::fill(call->y.data.begin(), call->y.data.end(), kspmv::testing::poison<Scalar>());
      }
      call->x_device.upload(call->x);
      call->y_device.upload(call->y);
    }
    graph.launch();
    stream.synchronize();
    for (const auto& call : calls) {
      SCOPED_TRACE(std::string(call->planned ? "planned" : "without a plan") + ", mode " +
                   to_string(call->mode) + ", " + std::to_string(call->x.k) + " vectors");
      const auto expected = reference::spmv(call->mode, call->alpha, kspmv::testing::arrays(host),
                                            call->x, call->beta, call->y);
      bool outside_untouched = false;
      const auto got = call->y_device.download(outside_untouched);
      EXPECT_TRUE(outside_untouched);
      EXPECT_EQ(reference::compare(expected, got), "");
    }
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
