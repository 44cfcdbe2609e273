// kspmv_cuda_setup_bench: what making a plan costs (kspmv::cuda::Plan, Auto, one matrix each) on
// the generated families, with the structure check on and off: setup/<matrix>/checked and
// setup/<matrix>/unchecked, each iteration one plan's setup_seconds(). Run with repetitions
// interleaved at random, e.g.
//
//   kspmv_cuda_setup_bench --scale=1 --benchmark_repetitions=9
//       --benchmark_enable_random_interleaving=true --benchmark_out=setup.json
//
// (--scale: the generators' row-count factor, 1 being the nightly suite's sizes).

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cuda_status.hpp"
#include "device_csr.hpp"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/matrices/generators.hpp"

namespace kspmv::bench {
namespace {

using Matrix = DeviceCsr<double, std::int32_t, std::int64_t>;

// Generated and uploaded once, at the first benchmark that needs it.
const Matrix& device_matrix(matrices::Family family, double scale) {
  static std::map<matrices::Family, std::unique_ptr<Matrix>> made;
  auto& slot = made[family];
  if (!slot) {
    const auto host = matrices::generate<double, std::int32_t, std::int64_t>(
        matrices::GeneratorSpec{family, scale, matrices::default_seed});
    slot = std::make_unique<Matrix>(host);
  }
  return *slot;
}

void plan_setup(benchmark::State& state, matrices::Family family, double scale, bool checked) {
  const Matrix& A = device_matrix(family, scale);
  cudaStream_t stream = nullptr;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  cuda::PlanOptions options;
  options.check_structure = checked;
  // The first plan of a process also loads its kernels: not a cost of the plan.
  cuda::Plan<double, std::int32_t, std::int64_t>(A.matrix(), Algorithm::Auto, stream, options);
  for (auto _ : state) {
    const cuda::Plan<double, std::int32_t, std::int64_t> plan(A.matrix(), Algorithm::Auto, stream,
                                                              options);
    state.SetIterationTime(plan.setup_seconds());
  }
  state.counters["entries"] = static_cast<double>(A.matrix().num_entries);
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

}  // namespace
}  // namespace kspmv::bench

int main(int argc, char** argv) {
  double scale = 1.0;
  std::vector<char*> passthrough;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--scale=", 0) == 0) {
      scale = std::strtod(arg.c_str() + 8, nullptr);
    } else {
      passthrough.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(passthrough.size());
  benchmark::Initialize(&count, passthrough.data());
  try {
    for (const auto family : kspmv::matrices::all_families()) {
      const std::string name = kspmv::matrices::make_row_generator({family, scale})->name();
      for (const bool checked : {true, false}) {
        benchmark::RegisterBenchmark(
            ("setup/" + name + (checked ? "/checked" : "/unchecked")).c_str(),
            kspmv::bench::plan_setup, family, scale, checked)
            ->UseManualTime()
            ->Iterations(5)
            ->Unit(benchmark::kMillisecond);
      }
    }
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::cerr << "kspmv_cuda_setup_bench: " << e.what() << '\n';
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
