// kspmv_perf: the performance suite on Kokkos' default execution space, through kspmv's public
// API, against Kokkos Kernels and (on CUDA) cuSPARSE. See perf_tests/README.md.

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <vector>

#include "copy_kernel.hpp"
#include "device_info.hpp"
#include "implementations.hpp"
#include "kspmv/bench/run_suite.hpp"

namespace kspmv::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

template <class T>
Kokkos::View<T*, typename ExecSpace::device_type> to_device(const std::vector<T>& host,
                                                            const char* label) {
  Kokkos::View<T*, typename ExecSpace::device_type> device(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), host.size());
  Kokkos::deep_copy(device, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                host.data(), host.size()));
  return device;
}

template <class Scalar>
std::unique_ptr<Workload<Scalar>> make_workload(const ExecSpace& exec, const Csr<Scalar>& host,
                                                const std::vector<Scalar>& x,
                                                const Operation& operation) {
  DeviceOperands<ExecSpace, Scalar, Ordinal, Offset> ops;
  ops.num_cols = host.num_cols;
  ops.row_map = to_device(host.row_map, "kspmv_perf::row_map");
  ops.entries = to_device(host.entries, "kspmv_perf::entries");
  ops.values = to_device(host.values, "kspmv_perf::values");
  ops.x = to_device(x, "kspmv_perf::x");
  ops.y = decltype(ops.y)("kspmv_perf::y", operation.transposed() ? host.num_cols : host.num_rows);
  auto workload = std::make_unique<Workload<Scalar>>();
  workload->implementations = make_implementations(exec, ops, host, operation);
  workload->set_y = [=](const std::vector<Scalar>& values) {
    Kokkos::deep_copy(exec, ops.y,
                      Kokkos::View<const Scalar*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          values.data(), values.size()));
    exec.fence();
  };
  workload->download_y = [=] {
    exec.fence();
    const auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ops.y);
    return std::vector<Scalar>(y.data(), y.data() + y.extent(0));
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
