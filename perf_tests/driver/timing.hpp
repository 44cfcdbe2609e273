#pragma once
// DESIGN.md's timing: warm up, then batches of back-to-back calls between two fences on the
// instance, the median over batches. A batch grows until it lasts long enough for the fences and
// the timer to vanish in it.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace kspmv::perf {

struct TimingPolicy {
  int warmup_calls = 3;
  int batches = 7;
  double min_batch_seconds = 0.002;
  double slowdown = 1.0;  // > 1 plants a slowdown: runs this many times the counted calls
};

struct BatchTiming {
  double seconds_per_call = 0;  // median over batches
  int calls_per_batch = 0;
  std::vector<double> batch_seconds_per_call;
};

template <class ExecSpace, class Call>
BatchTiming time_batches(const ExecSpace& exec, const TimingPolicy& policy, const Call& call) {
  auto run = [&](long calls) {
    exec.fence();
    Kokkos::Timer timer;
    for (long i = 0; i < calls; ++i) call();
    exec.fence();
    return timer.seconds();
  };
  run(policy.warmup_calls);

  constexpr long max_calls = 1 << 20;
  long calls = 1;
  for (double seconds = run(calls); seconds < policy.min_batch_seconds && calls < max_calls;
       seconds = run(calls)) {
    const double wanted = 1.2 * policy.min_batch_seconds / std::max(seconds, 1e-9);
    calls = std::min(max_calls, std::max(2 * calls, static_cast<long>(std::ceil(calls * wanted))));
  }

  BatchTiming t;
  t.calls_per_batch = static_cast<int>(calls);
  const long executed = std::lround(static_cast<double>(calls) * policy.slowdown);
  for (int b = 0; b < policy.batches; ++b) {
    t.batch_seconds_per_call.push_back(run(executed) / static_cast<double>(calls));
  }
  auto sorted = t.batch_seconds_per_call;
  std::sort(sorted.begin(), sorted.end());
  const auto n = sorted.size();
  t.seconds_per_call = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  return t;
}

}  // namespace kspmv::perf
