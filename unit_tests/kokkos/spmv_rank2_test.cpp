// rank-2 x and y in every layout: see typed_fixture.hpp.

#include "typed_fixture.hpp"

namespace kspmv::testing {
namespace {

template <class T>
class Rank2SpmvEquivalentToReference : public ::testing::Test {};
TYPED_TEST_SUITE(Rank2SpmvEquivalentToReference, AllTypes);

TYPED_TEST(Rank2SpmvEquivalentToReference, Rank2LayoutLeft) {
  check_every_mode_and_algorithm<TypeParam, Layout::Left, 2>(150, 170, kMixedRows, 3);
}
TYPED_TEST(Rank2SpmvEquivalentToReference, Rank2LayoutRight) {
  check_every_mode_and_algorithm<TypeParam, Layout::Right, 2>(170, 150, kMixedRows, 4);
}
TYPED_TEST(Rank2SpmvEquivalentToReference, Rank2StridedSubview) {
  check_every_mode_and_algorithm<TypeParam, Layout::Strided, 2>(131, 97, kMixedRows, 2);
}

}  // namespace
}  // namespace kspmv::testing
