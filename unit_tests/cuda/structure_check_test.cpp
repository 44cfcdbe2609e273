// The raw API refuses a malformed matrix before any kernel but the check reads it: a Plan of every
// algorithm, and apply_without_plan in modes N and T, throw kspmv::malformed_matrix naming the
// first bad row, and y keeps its bits. Run under compute-sanitizer memcheck, no kernel may read or
// write outside the arrays.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "device_harness.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;
using Csr = HostCsr<double, std::int32_t, std::int64_t>;

// A 4 x 3 matrix of 7 entries, rows {0, 2}, {1}, {0, 1}, {1, 2}.
Csr four_by_three() {
  return Csr{4, 3, {0, 2, 3, 5, 7}, {0, 2, 1, 0, 1, 1, 2}, {1, 2, 3, 4, 5, 6, 7}};
}

struct Malformation {
  const char* name;
  std::function<void(Csr&)> apply;
  std::string message;
};

const std::vector<Malformation>& malformations() {
  static const std::vector<Malformation> all = {
      {"column 100000", [](Csr& A) { A.entries[3] = 100000; },
       "row 2 of the 4 x 3 matrix: column index 100000 (entry 3) is outside [0, 3)"},
      {"column -100000", [](Csr& A) { A.entries[2] = -100000; },
       "row 1 of the 4 x 3 matrix: column index -100000"},
      {"last offset 5000", [](Csr& A) { A.row_map[4] = 5000; },
       "row 3 of the 4 x 3 matrix: row_map(4) = 5000 exceeds the number of entries, 7"},
      {"decreasing row_map", [](Csr& A) { A.row_map[2] = 1; },
       "row 1 of the 4 x 3 matrix: row_map decreases"},
      {"row_map(0) = 2", [](Csr& A) { A.row_map[0] = 2; }, "row 0 of the 4 x 3 matrix"},
      {"ends before the last entry", [](Csr& A) { A.row_map[4] = 6; },
       "row 3 of the 4 x 3 matrix: row_map(4) = 6 but there are 7 entries"},
  };
  return all;
}

void expect_malformed(const std::function<void()>& call, const std::string& message,
                      const std::string& context) {
  try {
    call();
    ADD_FAILURE() << context << ": no exception";
  } catch (const malformed_matrix& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
        << context << ": " << e.what();
  }
}

class CudaStructureCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    KSPMV_SKIP_WITHOUT_GPU();
    seed = fresh_seed();
    rng.seed(seed);
  }
  // y keeps its bits and the poison around it.
  void expect_untouched(const DeviceBlock<double>& y, const Block<double>& before,
                        const std::string& context) {
    bool outside_untouched = false;
    const auto after = y.download(outside_untouched);
    EXPECT_EQ(
        std::memcmp(after.data.data(), before.data.data(), before.data.size() * sizeof(double)), 0)
        << context;
    EXPECT_TRUE(outside_untouched) << context;
  }
  // y (poisoned around) equals the reference's beta*y + op(A)*x, and nothing around it was written.
  static void expect_reference(const DeviceBlock<double>& y, Mode mode, const Csr& A,
                               const Block<double>& x, const Block<double>& y_before,
                               const std::string& context) {
    bool outside_untouched = false;
    EXPECT_EQ(
        reference::compare(reference::spmv(mode, 1.0, kspmv::testing::arrays(A), x, 0.5, y_before),
                           y.download(outside_untouched)),
        "")
        << context;
    EXPECT_TRUE(outside_untouched) << context;
  }
  std::uint64_t seed = 0;
  std::mt19937_64 rng;
};

TEST_F(CudaStructureCheck, MalformedMatrixIsRefusedBeforeAnyKernelReadsIt) {
  SCOPED_TRACE(seed_message(seed));
  Stream stream;
  for (const auto& broken : malformations()) {
    Csr host = four_by_three();
    broken.apply(host);
    const DeviceCsr<double, std::int32_t, std::int64_t> A(host);
    for (const Algorithm algorithm : kAlgorithms) {
      expect_malformed(
          [&] { Plan<double, std::int32_t, std::int64_t>(A.matrix(), algorithm, stream.get()); },
          "kspmv::cuda::Plan: " + broken.message,
          std::string(broken.name) + ", " + to_string(algorithm));
    }
    for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
      const bool transposed = mode == Mode::Transpose;
      const DeviceBlock<double> x(random_block<double>(transposed ? 4 : 3, 1, rng), kContiguous);
      const auto y_before = random_block<double>(transposed ? 3 : 4, 1, rng);
      const DeviceBlock<double> y(y_before, kContiguous);
      const std::string context = std::string(broken.name) + ", mode " + to_string(mode);
      expect_malformed(
          [&] {
            apply_without_plan(mode, 1.0, A.matrix(), x.const_block(), 0.5, y.block(),
                               stream.get());
          },
          "kspmv::cuda::apply_without_plan: " + broken.message, context);
      stream.synchronize();
      expect_untouched(y, y_before, context);
    }
  }
}

// A matrix without entries makes no plan, so apply_without_plan checks its row offsets itself:
// offsets that promise an entry are refused in modes N and T with y untouched, and all-zero
// offsets give y = beta*y.
TEST_F(CudaStructureCheck, MatrixWithoutEntriesIsCheckedWithoutAPlan) {
  SCOPED_TRACE(seed_message(seed));
  Stream stream;
  const Csr promising_an_entry{2, 3, {0, 0, 1}, {}, {}};
  const Csr empty{2, 3, {0, 0, 0}, {}, {}};
  const DeviceCsr<double, std::int32_t, std::int64_t> broken(promising_an_entry);
  const DeviceCsr<double, std::int32_t, std::int64_t> A(empty);
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    const bool transposed = mode == Mode::Transpose;
    const auto x_host = random_block<double>(transposed ? 2 : 3, 1, rng);
    const DeviceBlock<double> x(x_host, kContiguous);
    const auto y_before = random_block<double>(transposed ? 3 : 2, 1, rng);
    const std::string context = std::string("mode ") + to_string(mode);
    const DeviceBlock<double> y_refused(y_before, kContiguous);
    expect_malformed(
        [&] {
          apply_without_plan(mode, 1.0, broken.matrix(), x.const_block(), 0.5, y_refused.block(),
                             stream.get());
        },
        "kspmv::cuda::apply_without_plan: row 1 of the 2 x 3 matrix: row_map(2) = 1 exceeds the "
        "number of entries, 0",
        context);
    stream.synchronize();
    expect_untouched(y_refused, y_before, context);

    const DeviceBlock<double> y(y_before, kContiguous);
    apply_without_plan(mode, 1.0, A.matrix(), x.const_block(), 0.5, y.block(), stream.get());
    stream.synchronize();
    expect_reference(y, mode, empty, x_host, y_before, context);
  }
}

// Past one grid of the check's kernel (4096 blocks of 256 threads): the bad row is found wherever
// it lies, and the earliest of two is named.
TEST_F(CudaStructureCheck, FindsTheFirstBadRowOfALargeMatrix) {
  SCOPED_TRACE(seed_message(seed));
  Csr host = random_csr<double, std::int32_t, std::int64_t>(1500000, 1000, RowShape{1, 2}, rng);
  host.entries[host.row_map[1400000]] = 1000;
  host.entries[host.row_map[1499999]] = -1;
  const DeviceCsr<double, std::int32_t, std::int64_t> A(host);
  Stream stream;
  expect_malformed(
      [&] { Plan<double, std::int32_t, std::int64_t>(A.matrix(), Algorithm::Auto, stream.get()); },
      "row 1400000 of the 1500000 x 1000 matrix: column index 1000", "large matrix");
}

// The opt-out, shown on the one malformation safe to run (every read stays inside the arrays):
// with the check off the plan is made, and its product is that of the rows row_map describes.
TEST_F(CudaStructureCheck, CheckOffSkipsTheCheck) {
  SCOPED_TRACE(seed_message(seed));
  Csr host = four_by_three();
  host.row_map[4] = 6;
  const DeviceCsr<double, std::int32_t, std::int64_t> A(host);
  Stream stream;
  PlanOptions unchecked;
  unchecked.check_structure = false;
  Plan<double, std::int32_t, std::int64_t> plan(A.matrix(), Algorithm::Auto, stream.get(),
                                                unchecked);
  const auto x = random_block<double>(3, 1, rng);
  const Block<double> y0{4, 1, std::vector<double>(4, 0.0)};
  const DeviceBlock<double> x_device(x, kContiguous);
  const DeviceBlock<double> y(y0, kContiguous);
  plan.apply(Mode::NoTranspose, 1.0, A.matrix(), x_device.const_block(), 0.0, y.block(),
             stream.get());
  stream.synchronize();
  bool outside_untouched = false;
  EXPECT_EQ(reference::compare(
                reference::spmv(Mode::NoTranspose, 1.0, kspmv::testing::arrays(host), x, 0.0, y0),
                y.download(outside_untouched)),
            "");
}

// A caller that checked A itself (kspmv::spmv's front end) says so, and the plan made for the call
// does not check again: shown, as above, in mode N on the one malformation safe to run there, which
// the same call without the word refuses. (Mode T builds A^T from every entry, so no malformation
// is safe to run there: its call is shown right on a well-formed matrix.)
TEST_F(CudaStructureCheck, CallerCheckedStructureIsNotCheckedAgain) {
  SCOPED_TRACE(seed_message(seed));
  Csr malformed = four_by_three();
  malformed.row_map[4] = 6;
  WithoutPlanOptions checked;
  checked.structure_checked = true;
  Stream stream;
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    const bool transposed = mode == Mode::Transpose;
    const Csr host = transposed ? four_by_three() : malformed;
    const DeviceCsr<double, std::int32_t, std::int64_t> A(host);
    const auto x = random_block<double>(transposed ? 4 : 3, 1, rng);
    const auto y_before = random_block<double>(transposed ? 3 : 4, 1, rng);
    const DeviceBlock<double> x_device(x, kContiguous);
    const DeviceBlock<double> y(y_before, kContiguous);
    const std::string context = std::string("mode ") + to_string(mode);
    if (!transposed) {
      expect_malformed(
          [&] {
            apply_without_plan(mode, 1.0, A.matrix(), x_device.const_block(), 0.5, y.block(),
                               stream.get());
          },
          "row 3 of the 4 x 3 matrix: row_map(4) = 6 but there are 7 entries", context);
    }
    apply_without_plan(mode, 1.0, A.matrix(), x_device.const_block(), 0.5, y.block(), stream.get(),
                       checked);
    stream.synchronize();
    expect_reference(y, mode, host, x, y_before, context);
    release_cached_plans();
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
