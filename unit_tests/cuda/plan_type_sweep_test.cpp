// Every scalar x ordinal x offset instantiation, every algorithm, on small random matrices.

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <random>
#include <tuple>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

template <class Types>
class CudaPlanTypeSweep : public ::testing::Test {};

// The six ordinal/offset pairs with one scalar type.
#define KSPMV_INDEX_TYPES(S)                                                               \
  std::tuple<S, std::int32_t, std::int32_t>, std::tuple<S, std::int32_t, std::int64_t>,    \
      std::tuple<S, std::int32_t, std::size_t>, std::tuple<S, std::int64_t, std::int32_t>, \
      std::tuple<S, std::int64_t, std::int64_t>, std::tuple<S, std::int64_t, std::size_t>
using AllTypes = ::testing::Types<KSPMV_INDEX_TYPES(float), KSPMV_INDEX_TYPES(double),
                                  KSPMV_INDEX_TYPES(std::complex<float>),
                                  KSPMV_INDEX_TYPES(std::complex<double>)>;
#undef KSPMV_INDEX_TYPES
TYPED_TEST_SUITE(CudaPlanTypeSweep, AllTypes);

TYPED_TEST(CudaPlanTypeSweep, SmallRandomMatrices) {
  KSPMV_SKIP_WITHOUT_GPU();
  using Scalar = std::tuple_element_t<0, TypeParam>;
  using Ordinal = std::tuple_element_t<1, TypeParam>;
  using Offset = std::tuple_element_t<2, TypeParam>;
  const auto seed = kspmv::testing::fresh_seed();
  SCOPED_TRACE(kspmv::testing::seed_message(seed));
  std::mt19937_64 rng(seed);
  const auto A = kspmv::testing::random_csr<Scalar, Ordinal, Offset>(
      333, 257, kspmv::testing::RowShape{0, 40}, rng);
  for (const Algorithm algorithm : kAlgorithms) {
    for (const Mode mode : {Mode::NoTranspose, Mode::ConjugateTranspose}) {
      SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode));
      EXPECT_EQ(check_spmv(A, algorithm, mode, kspmv::testing::random_value<Scalar>(rng),
                           kspmv::testing::random_value<Scalar>(rng), rng),
                "");
    }
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
