// The raw API's checks that run on the host before any work reaches the device: they hold, and are
// tested, without a GPU (this program skips nothing).

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/without_plan.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::cuda {
namespace {

TEST(CudaCallChecks, KokkosKernelsIsNotACudaKernel) {
  const CsrMatrix<double, std::int32_t, std::int32_t> empty{};
  EXPECT_THROW((Plan<double, std::int32_t, std::int32_t>(empty, Algorithm::KokkosKernels, nullptr)),
               unsupported_argument);
}

TEST(CudaCallChecks, MisalignedComplexArraysAreRejected) {
  // A complex array offset by half a value, as a std::complex<double>* into an array of doubles can
  // be, would make the kernels' 16-byte loads fault.
  using Complex = std::complex<double>;
  alignas(16) static double storage[16];
  auto* aligned = reinterpret_cast<Complex*>(storage);
  auto* misaligned = reinterpret_cast<Complex*>(storage + 1);
  auto* misaligned_y = reinterpret_cast<Complex*>(storage + 9);  // apart from x
  static const std::int32_t row_map[2] = {0, 1};
  static const std::int32_t entries[1] = {0};
  const auto matrix = [&](const Complex* values) {
    return CsrMatrix<Complex, std::int32_t, std::int32_t>{1, 1, 1, row_map, entries, values};
  };
  const auto call = [&](const Complex* values, const Complex* x, Complex* y) {
    apply_without_plan(Mode::NoTranspose, Complex(1), matrix(values),
                       DenseBlock<const Complex>{x, 1}, Complex(0), DenseBlock<Complex>{y, 1},
                       nullptr);
  };
  auto* y = reinterpret_cast<Complex*>(storage + 4);
  for (const auto& [values, x, out, name] :
       {std::tuple{misaligned, aligned, y, "A's values"}, std::tuple{aligned, misaligned, y, "x"},
        std::tuple{aligned, aligned, misaligned_y, "y"}}) {
    try {
      call(values, x, out);
      ADD_FAILURE() << "a misaligned " << name << " was accepted";
    } catch (const unsupported_argument& error) {
      EXPECT_NE(std::string(error.what()).find(std::string(": ") + name + " is not aligned"),
                std::string::npos)
          << error.what();
    }
  }
}

// A y that shares an element with x: every mode, one vector and several.
TEST(CudaCallChecks, XAndYSharingAnElementAreRejected) {
  const std::vector<std::int32_t> row_map{0, 1, 2};
  const std::vector<std::int32_t> entries{0, 1};
  const std::vector<double> values{1.0, 2.0};
  std::vector<double> v(8, 1.0);
  const CsrMatrix<double, std::int32_t, std::int32_t> A{
      2, 2, 2, row_map.data(), entries.data(), values.data()};
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose, Mode::ConjugateTranspose}) {
    EXPECT_THROW(apply_without_plan(mode, 1.0, A, DenseBlock<const double>{v.data(), 2, 1, 1, 0},
                                    0.0, DenseBlock<double>{v.data(), 2, 1, 1, 0}, nullptr),
                 unsupported_argument);
    // Two vectors of 2 rows, y starting at x's second vector.
    EXPECT_THROW(apply_without_plan(mode, 1.0, A, DenseBlock<const double>{v.data(), 2, 2, 1, 2},
                                    0.0, DenseBlock<double>{v.data() + 2, 2, 2, 1, 2}, nullptr),
                 unsupported_argument);
  }
}

}  // namespace
}  // namespace kspmv::cuda
