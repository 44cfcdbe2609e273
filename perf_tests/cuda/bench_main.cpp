// kspmv_cuda_bench: every kspmv CUDA algorithm and Auto against cuSPARSE CSR ALG1 and ALG2, on the
// generated large matrices and on a directory of Matrix Market files, in one run on one device,
// with the device's measured copy bandwidth as the roofline.

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "batch_timer.hpp"
#include "cusparse_spmv.hpp"
#include "device_csr.hpp"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/matrices/generators.hpp"
#include "kspmv/matrices/matrix_market.hpp"
#include "kspmv/reference/spmv_reference.hpp"
#include "options.hpp"
#include "report.hpp"

namespace kspmv::bench {
namespace {

using Ordinal = std::int32_t;
using Offset = std::int32_t;
template <class Scalar>
using Csr = matrices::HostCsr<Scalar, Ordinal, Offset>;

// A large device-to-device copy, counting bytes read plus written: the bandwidth ceiling.
double copy_bandwidth_gb_per_s(cudaStream_t stream) {
  constexpr std::size_t kBytes = std::size_t(1) << 31;
  DeviceVector<unsigned char> from(kBytes);
  DeviceVector<unsigned char> to(kBytes);
  check(cudaMemset(from.data(), 1, kBytes), "cudaMemset");
  BatchTimer timer(stream);
  const double us = timer.median_us(
      [&] {
        check(cudaMemcpyAsync(to.data(), from.data(), kBytes, cudaMemcpyDeviceToDevice, stream),
              "copy");
      },
      21);
  return 2.0 * kBytes / (us * 1e3);
}

// One input to benchmark: a generated family or a Matrix Market file.
struct Input {
  std::string name;
  std::string source;
  std::function<Csr<double>()> load_fp64;
  std::function<Csr<float>()> load_fp32;
};

std::vector<Input> inputs(const Options& options) {
  std::vector<Input> list;
  if (options.generated_scale > 0) {
    for (const auto family : matrices::all_families()) {
      const matrices::GeneratorSpec spec{family, options.generated_scale};
      list.push_back({matrices::make_row_generator(spec)->name(), "generated",
                      [spec] { return matrices::generate<double, Ordinal, Offset>(spec); },
                      [spec] { return matrices::generate<float, Ordinal, Offset>(spec); }});
    }
  }
  if (!options.matrices_dir.empty()) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(options.matrices_dir)) {
      const std::string file = entry.path().filename().string();
      if (file.size() > 4 && (file.find(".mtx") != std::string::npos))
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      std::string name = path.filename().string();
      name = name.substr(0, name.find(".mtx"));
      const std::string p = path.string();
      list.push_back({name, "file",
                      [p] { return matrices::read_matrix_market<double, Ordinal, Offset>(p); },
                      [p] { return matrices::read_matrix_market<float, Ordinal, Offset>(p); }});
    }
  }
  if (!options.only.empty()) {
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const Input& in) {
                                return std::find(options.only.begin(), options.only.end(),
                                                 in.name) == options.only.end();
                              }),
               list.end());
  }
  return list;
}

// DESIGN.md's compulsory bytes for y = A x (beta == 0: y written, not read).
template <class Scalar>
double compulsory_bytes(const Csr<Scalar>& A) {
  return static_cast<double>(A.num_entries()) * (sizeof(Scalar) + sizeof(Ordinal)) +
         static_cast<double>(A.num_rows + 1) * sizeof(Offset) +
         static_cast<double>(A.num_cols) * sizeof(Scalar) +
         static_cast<double>(A.num_rows) * sizeof(Scalar);
}

template <class Scalar>
void benchmark_matrix(const Input& input, const Csr<Scalar>& host, const std::string& precision,
                      cudaStream_t stream, Run& run) {
  std::mt19937_64 rng(20261122);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  reference::Block<Scalar> x{host.num_cols, 1,
                             std::vector<Scalar>(static_cast<std::size_t>(host.num_cols))};
  for (auto& v : x.data) v = static_cast<Scalar>(uniform(rng));
  const reference::Block<Scalar> y0{host.num_rows, 1,
                                    std::vector<Scalar>(static_cast<std::size_t>(host.num_rows))};
  const reference::CsrArrays<Scalar, Ordinal, Offset> arrays{
      host.num_rows, host.num_cols, host.row_map.data(), host.entries.data(), host.values.data()};
  const auto expected = reference::spmv(Mode::NoTranspose, Scalar(1), arrays, x, Scalar(0), y0);

  const DeviceCsr<Scalar, Ordinal, Offset> A(host);
  const DeviceVector<Scalar> x_device(x.data);
  DeviceVector<Scalar> y_device(static_cast<std::size_t>(host.num_rows));
  BatchTimer timer(stream);
  const double bytes = compulsory_bytes(host);
  const auto error_of_y = [&] {
    const reference::Block<Scalar> got{host.num_rows, 1, y_device.download()};
    return reference::relative_error(expected, got);
  };
  std::vector<Record> records;
  const auto measure = [&](const std::string& algorithm, double setup_seconds, auto&& call) {
    check(cudaMemset(y_device.data(), 0xff, y_device.size() * sizeof(Scalar)), "poison y");  // NaN
    call();
    check(cudaStreamSynchronize(stream), "first call");
    Record r{input.name,         input.source, host.num_rows, host.num_cols,
             host.num_entries(), precision,    algorithm};
    r.rel_error = error_of_y();
    r.setup_us = 1e6 * setup_seconds;
    r.time_us = timer.median_us(call);
    r.gb_per_s = bytes / (r.time_us * 1e3);
    r.roofline = r.gb_per_s / run.copy_gb_per_s;
    records.push_back(r);
  };

  const cuda::DenseBlock<const Scalar> xb{x_device.data(), host.num_cols, 1, 1, host.num_cols};
  const cuda::DenseBlock<Scalar> yb{y_device.data(), host.num_rows, 1, 1, host.num_rows};
  for (const Algorithm algorithm : {Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive,
                                    Algorithm::MergePath, Algorithm::Auto}) {
    cuda::Plan<Scalar, Ordinal, Offset> plan(A.matrix(), algorithm, stream);
    const std::string name =
        algorithm == Algorithm::Auto ? "Auto:" + to_string(plan.algorithm()) : to_string(algorithm);
    measure(name, plan.setup_seconds(), [&] {
      plan.apply(Mode::NoTranspose, Scalar(1), A.matrix(), xb, Scalar(0), yb, stream);
    });
  }
  for (const auto& [name, algorithm] : {std::pair{"cuSPARSE-ALG1", CUSPARSE_SPMV_CSR_ALG1},
                                        std::pair{"cuSPARSE-ALG2", CUSPARSE_SPMV_CSR_ALG2}}) {
    CusparseSpmv<Scalar> cusparse(A, x_device.data(), y_device.data(), algorithm, stream);
    measure(name, cusparse.setup_seconds(), [&] { cusparse.apply(); });
  }

  double best_cusparse = std::numeric_limits<double>::infinity();
  for (const Record& r : records) {
    if (r.algorithm.rfind("cuSPARSE", 0) == 0) best_cusparse = std::min(best_cusparse, r.time_us);
  }
  for (Record& r : records) {
    r.vs_cusparse = best_cusparse / r.time_us;
    std::printf("    %-18s %10.2f us %6.1f%% of copy %6.2fx cuSPARSE  setup %9.1f us  error %.1e\n",
                r.algorithm.c_str(), r.time_us, 100 * r.roofline, r.vs_cusparse, r.setup_us,
                r.rel_error);
    run.records.push_back(r);
  }
}

// Geometric mean of Auto's speed-up over the better cuSPARSE algorithm, per precision and source.
void print_summary(const Run& run) {
  std::map<std::string, std::vector<double>> ratios;
  for (const Record& r : run.records) {
    if (r.algorithm.rfind("Auto", 0) == 0)
      ratios[r.precision + " " + r.source].push_back(r.vs_cusparse);
  }
  std::printf("\nAuto vs best cuSPARSE (geometric mean, min) on %s, copy %.0f GB/s\n",
              run.device.c_str(), run.copy_gb_per_s);
  for (const auto& [group, values] : ratios) {
    double log_sum = 0;
    for (const double v : values) log_sum += std::log(v);
    std::printf("  %-16s n=%2zu  geomean %.2fx  min %.2fx\n", group.c_str(), values.size(),
                std::exp(log_sum / values.size()), *std::min_element(values.begin(), values.end()));
  }
}

int run_benchmark(const Options& options) {
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  cudaStream_t stream = nullptr;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  Run run;
  run.device = properties.name;
  run.compiler = KSPMV_CUDA_COMPILER;
  run.commit = options.commit;
  run.copy_gb_per_s = copy_bandwidth_gb_per_s(stream);
  std::printf("device %s (%d SMs, L2 %d MB), copy bandwidth %.0f GB/s\n", properties.name,
              properties.multiProcessorCount, properties.l2CacheSize >> 20, run.copy_gb_per_s);

  const auto list = inputs(options);
  const std::size_t total = list.size() * options.precisions.size();
  std::size_t done = 0;
  for (const std::string& precision : options.precisions) {
    for (const Input& input : list) {
      std::printf("[%zu/%zu] %s %s\n", ++done, total, input.name.c_str(), precision.c_str());
      std::fflush(stdout);
      try {
        if (precision == "fp64") {
          benchmark_matrix(input, input.load_fp64(), precision, stream, run);
        } else {
          benchmark_matrix(input, input.load_fp32(), precision, stream, run);
        }
      } catch (const matrices::parse_error& e) {
        std::printf("    skipped: %s\n", e.what());  // e.g. a complex matrix
      }
      std::fflush(stdout);
    }
  }
  print_summary(run);
  std::filesystem::create_directories(options.out_dir);
  write_json(options.out_dir + "/results.json", run);
  write_csv(options.out_dir + "/results.csv", run);
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return 0;
}

}  // namespace
}  // namespace kspmv::bench

int main(int argc, char** argv) {
  try {
    return kspmv::bench::run_benchmark(kspmv::bench::parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "kspmv_cuda_bench: " << e.what() << '\n';
    return 1;
  }
}
