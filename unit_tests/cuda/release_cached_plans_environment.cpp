// Calls without a plan keep their plans until release_cached_plans(), which a raw-API program calls
// before it ends; so does this one, or compute-sanitizer's leak check reports every cached plan.

#include <gtest/gtest.h>

#include "kspmv/cuda/without_plan.hpp"

namespace {

class ReleaseCachedPlans : public ::testing::Environment {
 public:
  void TearDown() override { kspmv::cuda::release_cached_plans(); }
};

// gtest takes ownership; registered before main() runs the tests.
[[maybe_unused]] const auto* const kReleaseCachedPlans =
    ::testing::AddGlobalTestEnvironment(new ReleaseCachedPlans);

}  // namespace
