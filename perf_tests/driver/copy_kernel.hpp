#pragma once
// The roofline's ceiling on a Kokkos execution space: a copy kernel over two double arrays, so
// that the ceiling is what a Kokkos kernel sustains on that space (never a datasheet number).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>

namespace kspmv::bench {

template <class View>
struct CopyKernel {
  View destination;
  typename View::const_type source;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { destination(i) = source(i); }
};

// One call copies bytes / 2 bytes (bytes read plus written); the call holds the arrays.
template <class ExecSpace>
std::function<void()> copy_kernel(const ExecSpace& exec, double bytes) {
  using View = Kokkos::View<double*, Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>>;
  const auto n = static_cast<std::int64_t>(bytes / (2 * sizeof(double)));
  View source("kspmv_perf::copy_source", n);
  View destination("kspmv_perf::copy_destination", n);
  Kokkos::deep_copy(source, 1.0);
  return [=] {
    Kokkos::parallel_for(
        "kspmv_perf::copy",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
        CopyKernel<View>{destination, source});
  };
}

}  // namespace kspmv::bench
