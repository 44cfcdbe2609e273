#include "kspmv/cuda/without_plan.hpp"
#include "plan/plan_cache.hpp"

namespace kspmv::cuda {

void release_cached_plans() {
  detail::PlanCacheRegistry::instance().clear_all();
}

}  // namespace kspmv::cuda
