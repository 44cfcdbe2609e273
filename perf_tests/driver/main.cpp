// kspmv_perf: the nightly performance suite (see perf_tests/README.md).

#include <Kokkos_Core.hpp>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bandwidth.hpp"
#include "benchmark.hpp"
#include "device_info.hpp"
#include "environment.hpp"
#include "kspmv/matrices/matrix_market.hpp"
#include "options.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace kspmv::perf {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Ordinal = int;
using Offset = int;

struct Suite {
  std::vector<MatrixSource> matrices;
  std::vector<std::string> labels;  // backend/algorithm of every implementation
};

// The record keys of one matrix that --only lets through.
std::vector<std::string> selected_keys(const Options& options, const Suite& suite,
                                       const std::string& matrix) {
  std::vector<std::string> keys;
  for (const auto& precision : options.precisions) {
    for (const auto& label : suite.labels) {
      const auto key = matrix + "/" + label + "/" + precision;
      if (selected(options, key)) keys.push_back(key);
    }
  }
  return keys;
}

bool any_selected(const Options& options, const Suite& suite, const std::string& matrix,
                  const std::string& precision) {
  for (const auto& label : suite.labels) {
    if (selected(options, matrix + "/" + label + "/" + precision)) return true;
  }
  return false;
}

template <class Scalar>
void run_precision(const ExecSpace& exec, const MatrixSource& source,
                   const matrices::CoordinateMatrix* file, BenchmarkContext& context,
                   std::vector<Record>& records) {
  const auto host = file ? matrices::to_csr<Scalar, Ordinal, Offset>(*file)
                         : matrices::generate<Scalar, Ordinal, Offset>(*source.generator);
  const auto measured =
      benchmark_matrix(exec, source.name, file ? source.path : "generated", host, context);
  records.insert(records.end(), measured.begin(), measured.end());
}

void run_matrix(const ExecSpace& exec, const MatrixSource& source, const Suite& suite,
                BenchmarkContext& context, std::vector<Record>& records) {
  std::vector<std::string> precisions;
  for (const auto& p : context.options.precisions) {
    if (any_selected(context.options, suite, source.name, p)) precisions.push_back(p);
  }
  if (precisions.empty()) return;

  std::cout << (source.generator ? "generating " : "reading ") << source.name << std::endl;
  matrices::CoordinateMatrix file;
  if (!source.generator) {
    file = matrices::read_coordinates(source.path);
    if (file.field == matrices::Field::complex) {
      throw std::invalid_argument("complex matrix; the suite measures real precisions");
    }
  }
  for (const auto& p : precisions) {
    if (p == "fp64") {
      run_precision<double>(exec, source, source.generator ? nullptr : &file, context, records);
    } else {
      run_precision<float>(exec, source, source.generator ? nullptr : &file, context, records);
    }
  }
}

int run(const Options& options, int argc, char** argv) {
  const ExecSpace exec;
  Suite suite{suite_matrices(options),
              implementation_labels<ExecSpace, double, Ordinal, Offset>(exec)};

  Progress progress;
  for (const auto& source : suite.matrices) {
    const auto keys = selected_keys(options, suite, source.name);
    progress.total += static_cast<int>(keys.size());
    for (const auto& key : keys) {
      if (options.list_only) std::cout << key << "\n";
    }
  }
  if (options.list_only) return 0;

  RunInfo run;
  run.suite = options.suite;
  run.started_utc = utc_now();
  run.execution_space = ExecSpace::name();
  const auto device = device_info(exec);
  run.device_name = device.name;
  run.concurrency = device.concurrency;
  run.last_level_cache_bytes = device.last_level_cache_bytes;
  run.compiler = compiler_description();
  run.kokkos_version = kokkos_version();
  run.git_commit = options.git_commit.empty() ? KSPMV_PERF_GIT_COMMIT : options.git_commit;
  for (int i = 0; i < argc; ++i) run.command_line += (i ? " " : "") + std::string(argv[i]);
  run.scale = options.scale;

  TimingPolicy timing{options.warmup_calls, options.batches, options.min_batch_seconds,
                      options.plant_slowdown};
  std::cout << "measuring the copy bandwidth of " << run.execution_space << " on "
            << run.device_name << " ..." << std::flush;
  run.bandwidth = measure_copy_bandwidth(exec, options.copy_bytes, timing);
  std::cout << " " << run.bandwidth.gb_per_s << " GB/s" << std::endl;

  BenchmarkContext context{options, run, timing, progress};
  std::vector<Record> records;
  std::vector<Skipped> skipped;
  for (const auto& source : suite.matrices) {
    try {
      run_matrix(exec, source, suite, context, records);
    } catch (const std::invalid_argument& e) {
      std::cout << "skipping " << source.name << ": " << e.what() << std::endl;
      skipped.push_back({source.name, e.what()});
      progress.total -= static_cast<int>(selected_keys(options, suite, source.name).size());
    }
  }

  write_json(run, records, skipped, options.json_path);
  write_csv(records, options.csv_path);
  print_table(run, records, std::cout);
  std::cout << "\nwrote " << options.json_path << " and " << options.csv_path << "\n";
  int wrong = 0;
  for (const auto& r : records) {
    if (!r.wrong_result.empty()) {
      std::cout << "WRONG RESULT " << r.key() << ": " << r.wrong_result << "\n";
      ++wrong;
    }
  }
  return wrong == 0 ? 0 : 3;
}

}  // namespace
}  // namespace kspmv::perf

int main(int argc, char** argv) {
  // Options first, so that --help and usage errors need no device.
  kspmv::perf::Options options;
  try {
    if (!kspmv::perf::parse_options(argc, argv, options)) {
      std::cout << kspmv::perf::usage();
      return 0;
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "kspmv_perf: " << e.what() << "\n";
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    return kspmv::perf::run(options, argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << "kspmv_perf: " << e.what() << "\n";
    return 2;
  }
}
