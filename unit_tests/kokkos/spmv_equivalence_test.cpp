// kspmv::spmv is equivalent to the reference oracle for one scalar/ordinal/offset combination,
// KSPMV_TEST_TYPES (set per executable in CMakeLists.txt), in every mode, rank 1 and 2, every
// layout, with every algorithm the backend offers: see typed_fixture.hpp.

#include "typed_fixture.hpp"

namespace kspmv::testing {
namespace {

using T = Types<KSPMV_TEST_TYPES>;

TEST(SpmvEquivalentToReference, Rank1LayoutLeft) {
  check_every_mode_and_algorithm<T, Layout::Left, 1>(300, 200, kMixedRows, 1);
}
TEST(SpmvEquivalentToReference, Rank1LayoutRight) {
  check_every_mode_and_algorithm<T, Layout::Right, 1>(200, 300, kMixedRows, 1);
}
TEST(SpmvEquivalentToReference, Rank1StridedSubview) {
  check_every_mode_and_algorithm<T, Layout::Strided, 1>(257, 129, kMixedRows, 1);
}
TEST(SpmvEquivalentToReference, Rank2LayoutLeft) {
  check_every_mode_and_algorithm<T, Layout::Left, 2>(150, 170, kMixedRows, 3);
}
TEST(SpmvEquivalentToReference, Rank2LayoutRight) {
  check_every_mode_and_algorithm<T, Layout::Right, 2>(170, 150, kMixedRows, 4);
}
TEST(SpmvEquivalentToReference, Rank2StridedSubview) {
  check_every_mode_and_algorithm<T, Layout::Strided, 2>(131, 97, kMixedRows, 2);
}

}  // namespace
}  // namespace kspmv::testing
