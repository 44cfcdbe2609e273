#pragma once
// The roofline's ceiling, measured at the start of every run on the same execution space: a large
// copy kernel, bytes read plus bytes written per second (never a datasheet number). A ceiling is
// the best rate the machine sustains, and interference from other work only ever slows a batch
// down, so it is the fastest of many batches: on a shared 2-core machine the median of 15 batches
// varied by 40% over six runs, the fastest by 5%.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "record.hpp"
#include "timing.hpp"

namespace kspmv::perf {

template <class View>
struct CopyKernel {
  View destination;
  typename View::const_type source;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { destination(i) = source(i); }
};

template <class ExecSpace>
Bandwidth measure_copy_bandwidth(const ExecSpace& exec, double bytes_per_copy,
                                 TimingPolicy policy) {
  using View = Kokkos::View<double*, Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>>;
  const auto n = static_cast<std::int64_t>(bytes_per_copy / (2 * sizeof(double)));
  View source("kspmv_perf::copy_source", n);
  View destination("kspmv_perf::copy_destination", n);
  Kokkos::deep_copy(source, 1.0);
  policy.slowdown = 1.0;  // the ceiling itself is never slowed down
  policy.batches = std::max(policy.batches, 15);
  const auto timing = time_batches(exec, policy, [&] {
    Kokkos::parallel_for(
        "kspmv_perf::copy",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
        CopyKernel<View>{destination, source});
  });
  Bandwidth b;
  b.bytes_per_copy = static_cast<double>(2 * n * static_cast<std::int64_t>(sizeof(double)));
  b.seconds =
      *std::min_element(timing.batch_seconds_per_call.begin(), timing.batch_seconds_per_call.end());
  b.gb_per_s = b.bytes_per_copy / b.seconds * 1e-9;
  for (double seconds : timing.batch_seconds_per_call) {
    b.batch_gb_per_s.push_back(b.bytes_per_copy / seconds * 1e-9);
  }
  return b;
}

}  // namespace kspmv::perf
