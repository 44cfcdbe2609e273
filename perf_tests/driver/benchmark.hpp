#pragma once
// Measures every implementation on one matrix in one precision: correctness against the reference
// oracle (y poisoned first), setup time, batch timing, the byte model's figures, and the ratio to
// every baseline measured on the same matrix.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "implementations.hpp"
#include "kspmv/matrices/generators.hpp"
#include "kspmv/matrices/host_csr.hpp"
#include "kspmv/reference/spmv_reference.hpp"
#include "options.hpp"
#include "record.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace kspmv::perf {

template <class Scalar>
std::string precision_name() {
  return sizeof(Scalar) == 8 ? "fp64" : "fp32";
}

struct Progress {
  int done = 0;
  int total = 0;
};

struct BenchmarkContext {
  const Options& options;
  const RunInfo& run;
  TimingPolicy timing;
  Progress& progress;
};

template <class DeviceView, class T>
DeviceView to_device(const std::vector<T>& host, const char* label) {
  DeviceView device(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                    host.size());
  Kokkos::deep_copy(device, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                host.data(), host.size()));
  return device;
}

// The input vector: deterministic values in [-1, 1).
template <class Scalar>
std::vector<Scalar> input_vector(std::int64_t n) {
  constexpr std::uint64_t x_seed = 0x5eed;
  std::vector<Scalar> x(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    x[j] = static_cast<Scalar>(matrices::entry_value(x_seed, j, 0));
  return x;
}

// Baselines are the records of other backends; each record gets its speedup over each of them.
inline void add_speedups(std::vector<Record>& records) {
  for (auto& r : records) {
    for (const auto& baseline : records) {
      if (baseline.backend == "kspmv" || &baseline == &r) continue;
      r.speedup_vs[baseline.implementation()] = baseline.seconds_per_call / r.seconds_per_call;
    }
  }
}

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
std::vector<Record> benchmark_matrix(const ExecSpace& exec, const std::string& name,
                                     const std::string& source,
                                     const matrices::HostCsr<Scalar, Ordinal, Offset>& host,
                                     BenchmarkContext& context) {
  using Operands = DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>;
  const Scalar alpha = static_cast<Scalar>(context.run.alpha);
  const Scalar beta = static_cast<Scalar>(context.run.beta);
  const std::string precision = precision_name<Scalar>();

  const auto x_host = input_vector<Scalar>(host.num_cols);
  Operands ops;
  ops.num_cols = host.num_cols;
  ops.row_map = to_device<decltype(ops.row_map)>(host.row_map, "kspmv_perf::row_map");
  ops.entries = to_device<decltype(ops.entries)>(host.entries, "kspmv_perf::entries");
  ops.values = to_device<decltype(ops.values)>(host.values, "kspmv_perf::values");
  ops.x = to_device<decltype(ops.x)>(x_host, "kspmv_perf::x");
  ops.y = decltype(ops.y)("kspmv_perf::y", host.num_rows);
  auto y_host = Kokkos::create_mirror_view(ops.y);

  const reference::CsrArrays<Scalar, Ordinal, Offset> arrays{
      host.num_rows, host.num_cols, host.row_map.data(), host.entries.data(), host.values.data()};
  const reference::Block<Scalar> x_block{host.num_cols, 1, x_host};
  const reference::Block<Scalar> y_block{host.num_rows, 1,
                                         std::vector<Scalar>(host.row_map.size() - 1)};
  const auto expected = reference::spmv(Mode::NoTranspose, alpha, arrays, x_block, beta, y_block);

  std::vector<Record> records;
  for (auto& impl : make_implementations(exec, ops, host, alpha, beta)) {
    Record r;
    r.matrix = name;
    r.source = source;
    r.backend = impl.backend;
    r.algorithm = impl.algorithm;
    r.precision = precision;
    if (!selected(context.options, r.key())) continue;
    r.shape = SpmvShape{host.num_rows,
                        host.num_cols,
                        host.num_entries(),
                        1,
                        static_cast<std::int64_t>(sizeof(Scalar)),
                        static_cast<std::int64_t>(sizeof(Ordinal)),
                        static_cast<std::int64_t>(sizeof(Offset)),
                        beta != Scalar(0)};

    // The first call sets the implementation up and is checked against the oracle.
    Kokkos::deep_copy(ops.y, std::numeric_limits<Scalar>::quiet_NaN());
    impl.call();
    exec.fence();
    Kokkos::deep_copy(y_host, ops.y);
    const reference::Block<Scalar> got{
        host.num_rows, 1, std::vector<Scalar>(y_host.data(), y_host.data() + y_host.extent(0))};
    r.relative_error = reference::relative_error(expected, got);
    r.wrong_result = reference::compare(expected, got);
    r.setup_seconds = impl.setup_seconds();
    r.chosen_algorithm = impl.chosen_algorithm();

    const auto timing = time_batches(exec, context.timing, impl.call);
    r.seconds_per_call = timing.seconds_per_call;
    r.calls_per_batch = timing.calls_per_batch;
    r.batch_seconds_per_call = timing.batch_seconds_per_call;
    finish(r, context.run);

    std::cout << "[" << ++context.progress.done << "/" << context.progress.total << "] "
              << progress_line(r) << std::endl;
    records.push_back(std::move(r));
  }
  add_speedups(records);
  return records;
}

}  // namespace kspmv::perf
