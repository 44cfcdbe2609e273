// kspmv_perf: the performance suite on Kokkos' default execution space, through kspmv's public
// API, against Kokkos Kernels and (on CUDA) cuSPARSE. See perf_tests/README.md.

#include <Kokkos_Core.hpp>

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "copy_kernel.hpp"
#include "device_info.hpp"
#include "empty_kernel.hpp"
#include "kspmv/bench/run_suite.hpp"
#include "workload.hpp"

namespace kspmv::bench {
namespace {

using ExecSpace = DriverSpace;

class KokkosDriver final : public Driver {
 public:
  DeviceDescription describe() const override { return describe_device(exec_); }
  std::vector<std::string> implementation_labels(const Operation& operation) const override {
    return workload_labels(exec_, operation);
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
  std::function<void()> empty_kernel() override { return bench::empty_kernel(exec_); }
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
