// kspmv_perf: the performance suite on Kokkos' default execution space, through kspmv's public
// API, against Kokkos Kernels and (on CUDA) cuSPARSE. See perf_tests/README.md.

#include <Kokkos_Core.hpp>

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "copy_kernel.hpp"
#include "device_info.hpp"
#include "implementations.hpp"
#include "kspmv/bench/run_suite.hpp"
#include "kspmv/detail/std_scalar.hpp"
#include "scalar_types.hpp"

namespace kspmv::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

template <class T, class Stored = kokkos_scalar_t<T>>
Kokkos::View<Stored*, typename ExecSpace::device_type> to_device(const std::vector<T>& host,
                                                                 const char* label) {
  Kokkos::View<Stored*, typename ExecSpace::device_type> device(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), host.size());
  Kokkos::deep_copy(device, Kokkos::View<const Stored*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                reinterpret_cast<const Stored*>(host.data()), host.size()));
  return device;
}

// x's or y's values (column by column, as the harness keeps them) into the View, or back.
template <class View, class Scalar>
void copy_into(const ExecSpace& exec, const View& view, const std::vector<Scalar>& by_column,
               const Operation& operation) {
  const auto stored =
      to_operation_layout(by_column, static_cast<std::int64_t>(view.extent(0)), operation);
  using Stored = typename View::const_value_type;
  Kokkos::deep_copy(exec, view,
                    typename View::HostMirror::const_type(reinterpret_cast<Stored*>(stored.data()),
                                                          view.layout()));
  exec.fence();
}

template <class View,
          class Scalar = kspmv::detail::std_scalar_t<typename View::non_const_value_type>>
std::vector<Scalar> copy_out(const ExecSpace& exec, const View& view, const Operation& operation) {
  exec.fence();
  const auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  const auto* first = reinterpret_cast<const Scalar*>(mirror.data());
  return from_operation_layout(std::vector<Scalar>(first, first + mirror.size()),
                               static_cast<std::int64_t>(view.extent(0)), operation);
}

template <class Scalar>
std::unique_ptr<Workload<Scalar>> make_workload(const ExecSpace& exec, const Csr<Scalar>& host,
                                                const std::vector<Scalar>& x,
                                                const Operation& operation) {
  using Operands = DeviceOperands<ExecSpace, kokkos_scalar_t<Scalar>, Ordinal, Offset>;
  Operands ops;
  ops.num_cols = host.num_cols;
  ops.row_map = to_device(host.row_map, "kspmv_perf::row_map");
  ops.entries = to_device(host.entries, "kspmv_perf::entries");
  ops.values = to_device(host.values, "kspmv_perf::values");
  const auto x_length =
      static_cast<std::size_t>(operation.transposed() ? host.num_rows : host.num_cols);
  const auto y_length =
      static_cast<std::size_t>(operation.transposed() ? host.num_cols : host.num_rows);
  const auto k = static_cast<std::size_t>(operation.vectors);
  if (k == 1) {
    ops.x = decltype(ops.x)("kspmv_perf::x", x_length);
    ops.y = decltype(ops.y)("kspmv_perf::y", y_length);
  } else if (operation.layout_right) {
    ops.x_right = decltype(ops.x_right)("kspmv_perf::x", x_length, k);
    ops.y_right = decltype(ops.y_right)("kspmv_perf::y", y_length, k);
  } else {
    ops.x_left = decltype(ops.x_left)("kspmv_perf::x", x_length, k);
    ops.y_left = decltype(ops.y_left)("kspmv_perf::y", y_length, k);
  }
  with_vectors(ops, operation,
               [&](const auto& x_view, const auto&) { copy_into(exec, x_view, x, operation); });
  auto workload = std::make_unique<Workload<Scalar>>();
  workload->implementations = make_implementations(exec, ops, host, operation);
  workload->set_y = [=](const std::vector<Scalar>& values) {
    with_vectors(ops, operation, [&](const auto&, const auto& y_view) {
      copy_into(exec, y_view, values, operation);
    });
  };
  workload->download_y = [=] {
    std::vector<Scalar> values;
    with_vectors(ops, operation, [&](const auto&, const auto& y_view) {
      values = copy_out(exec, y_view, operation);
    });
    return values;
  };
  return workload;
}

class KokkosDriver final : public Driver {
 public:
  DeviceDescription describe() const override { return describe_device(exec_); }
  std::vector<std::string> implementation_labels(const Operation& operation) const override {
    return bench::implementation_labels<ExecSpace, double, Ordinal, Offset>(exec_, operation);
  }
  BatchClock clock() const override {
    return [exec = exec_](const std::function<void()>& call, long calls) {
      exec.fence();
      Kokkos::Timer timer;
      for (long i = 0; i < calls; ++i) call();
      exec.fence();
      return timer.seconds();
    };
  }
  std::function<void()> copy_kernel(double bytes) override {
    return bench::copy_kernel(exec_, bytes);
  }
  std::unique_ptr<Workload<double>> load(const Csr<double>& host, const std::vector<double>& x,
                                         const Operation& operation) override {
    return make_workload(exec_, host, x, operation);
  }
  std::unique_ptr<Workload<float>> load(const Csr<float>& host, const std::vector<float>& x,
                                        const Operation& operation) override {
    return make_workload(exec_, host, x, operation);
  }
  std::unique_ptr<Workload<std::complex<double>>> load(const Csr<std::complex<double>>& host,
                                                       const std::vector<std::complex<double>>& x,
                                                       const Operation& operation) override {
    return make_workload(exec_, host, x, operation);
  }
  std::unique_ptr<Workload<std::complex<float>>> load(const Csr<std::complex<float>>& host,
                                                      const std::vector<std::complex<float>>& x,
                                                      const Operation& operation) override {
    return make_workload(exec_, host, x, operation);
  }

 private:
  ExecSpace exec_;
};

}  // namespace
}  // namespace kspmv::bench

int main(int argc, char** argv) {
  kspmv::bench::CommandLine command_line;
  if (const auto status = kspmv::bench::parse_or_explain(argc, argv, command_line)) return *status;
  Kokkos::ScopeGuard kokkos(argc, argv);
  kspmv::bench::KokkosDriver driver;
  return kspmv::bench::run_suite(command_line, driver, argc, argv);
}
