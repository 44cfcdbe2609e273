// rank-1 x and y in every layout: see typed_fixture.hpp.

#include "typed_fixture.hpp"

namespace kspmv::testing {
namespace {

template <class T>
class Rank1SpmvEquivalentToReference : public ::testing::Test {};
TYPED_TEST_SUITE(Rank1SpmvEquivalentToReference, AllTypes);

TYPED_TEST(Rank1SpmvEquivalentToReference, Rank1LayoutLeft) {
  check_every_mode_and_algorithm<TypeParam, Layout::Left, 1>(300, 200, kMixedRows, 1);
}
TYPED_TEST(Rank1SpmvEquivalentToReference, Rank1LayoutRight) {
  check_every_mode_and_algorithm<TypeParam, Layout::Right, 1>(200, 300, kMixedRows, 1);
}
TYPED_TEST(Rank1SpmvEquivalentToReference, Rank1StridedSubview) {
  check_every_mode_and_algorithm<TypeParam, Layout::Strided, 1>(257, 129, kMixedRows, 1);
}

}  // namespace
}  // namespace kspmv::testing
