#pragma once
// The launch floor on a Kokkos execution space: a parallel_for of one iteration that does nothing,
// on the instance the implementations run on. A call that takes little more is launch-bound.

#include <Kokkos_Core.hpp>

#include <functional>

namespace kspmv::bench {

struct EmptyKernel {
  KOKKOS_INLINE_FUNCTION void operator()(int) const {}
};

template <class ExecSpace>
std::function<void()> empty_kernel(const ExecSpace& exec) {
  return [=] {
    Kokkos::parallel_for("kspmv_perf::empty", Kokkos::RangePolicy<ExecSpace>(exec, 0, 1),
                         EmptyKernel{});
  };
}

}  // namespace kspmv::bench
