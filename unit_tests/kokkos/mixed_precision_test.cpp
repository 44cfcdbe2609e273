// A matrix of single precision values with double precision vectors through the public API, on
// whichever backend the default execution space dispatches to: float with double, and
// Kokkos::complex<float> with Kokkos::complex<double>. The reference is the same product on the
// values widened exactly; its error bound is double precision's.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <random>

#include "spmv_harness.hpp"

namespace kspmv::testing {
namespace {

template <class Pair>
class MixedPrecision : public ::testing::Test {};

template <class Wide_, class Narrow_>
struct Pair {
  using Wide = Wide_;
  using Narrow = Narrow_;
};
using Pairs =
    ::testing::Types<Pair<double, float>, Pair<Kokkos::complex<double>, Kokkos::complex<float>>>;
TYPED_TEST_SUITE(MixedPrecision, Pairs);

// Every algorithm of the backend through a handle for double vectors, and the call without a
// handle; every mode; one vector, and three in LayoutLeft and LayoutRight.
TYPED_TEST(MixedPrecision, MatchesTheWidenedMatrix) {
  using Wide = typename TypeParam::Wide;
  using Narrow = typename TypeParam::Narrow;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937_64 rng(seed);
  const auto narrow =
      random_csr<host_scalar_t<Narrow>, int, std::size_t>(300, 257, RowShape{0, 40}, rng);
  const auto wide = widened_csr<host_scalar_t<Wide>>(narrow);
  const DeviceCsr<Narrow, int, std::size_t> A(narrow);
  using HandleT = Handle<decltype(A.view), ExecSpace, Wide>;
  for (const Algorithm algorithm : HandleT::backend_type::algorithms) {
    HandleT handle(algorithm);
    for (const Mode mode :
         {Mode::NoTranspose, Mode::Transpose, Mode::Conjugate, Mode::ConjugateTranspose}) {
      check_call<Wide, Layout::Left, 1>(wide, A, handle, Call{mode, 1.5, -0.5, 1}, rng);
      check_call<Wide, Layout::Left, 2>(wide, A, handle, Call{mode, -2.0, 0.0, 3}, rng);
      check_call<Wide, Layout::Right, 2>(wide, A, handle, Call{mode, 0.5, 1.0, 3}, rng);
    }
  }
  std::nullptr_t no_handle = nullptr;
  for (const Mode mode : {Mode::NoTranspose, Mode::ConjugateTranspose}) {
    check_call<Wide, Layout::Left, 1>(wide, A, no_handle, Call{mode, 1.5, -0.5, 1}, rng);
    check_call<Wide, Layout::Right, 2>(wide, A, no_handle, Call{mode, -2.0, 0.0, 3}, rng);
  }
}

}  // namespace
}  // namespace kspmv::testing
