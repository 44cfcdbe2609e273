// kspmv_cuda_bench: the CUDA backend's algorithms (kspmv::cuda::Plan and apply_without_plan, no
// Kokkos) against cuSPARSE's CSR SpMV (ALG1, ALG2) and, for several vectors, SpMM (ALG1-ALG3), on
// the suite's matrices, with the device's measured copy bandwidth as the roofline; and Auto's calls
// replayed from a CUDA graph, the launch-latency floor. The same harness and suites as kspmv_perf;
// see perf_tests/README.md.

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <complex>
#include <iostream>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_status.hpp"
#include "cusparse_product.hpp"
#include "device_csr.hpp"
#include "empty_kernel_launch.hpp"
#include "event_clock.hpp"
#include "kspmv/bench/host_info.hpp"
#include "kspmv/bench/run_suite.hpp"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/without_plan.hpp"
#include "kspmv/cuda_graph/captured_graph.hpp"

namespace kspmv::bench {
namespace {

// Through a reused plan (the raw API's handle): every algorithm for one vector, Auto for several;
// without one, apply_without_plan (see make_workload).
std::vector<Algorithm> planned_algorithms(const Operation& operation) {
  if (!operation.handle) return {};
  if (operation.vectors > 1) return {Algorithm::Auto};
  return {Algorithm::Auto, Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive,
          Algorithm::MergePath};
}

// Auto's calls captured in a graph of this many and replayed, where repeating a call is harmless
// (beta == 0): one graph launch instead of kGraphCalls kernel launches.
constexpr int kGraphCalls = 10;
bool has_graph_record(const Operation& operation) {
  return operation.handle && operation.beta == 0.0 && operation.vectors == 1;
}
const std::string kGraphAlgorithm = to_string(Algorithm::Auto) + "_graph";
// Transposed operations: Auto with A's values declared constant (a transposed copy kept).
const std::string kConstantValuesAlgorithm = to_string(Algorithm::Auto) + "_constant_values";
// Transposed operations: Auto with determinism off (atomic adds where the tiles do not serve). Its
// y is not reproducible: equivalence.py leaves "_atomic" records out.
const std::string kAtomicAlgorithm = to_string(Algorithm::Auto) + "_atomic";
// Transposed operations: Auto with each transposed form forced, so that the records show what the
// tiles, A^T's rows and the products cost beside Auto's choice between them; A^T's rows with the
// values declared constant too (a transposed copy), which the tiles and the products do not use.
struct ForcedTransposedForm {
  const char* label;
  TransposedForm form;
  bool values_constant;
};
constexpr ForcedTransposedForm kForcedTransposedForms[] = {
    {"_tiles", TransposedForm::Tiles, false},
    {"_rows", TransposedForm::Rows, false},
    {"_products", TransposedForm::Products, false},
    {"_rows_constant_values", TransposedForm::Rows, true}};

// Auto with the structure check off (y = A x, one vector, a handle): its setup_seconds beside
// Auto's is what the check costs a plan (docs/design.md, section 2).
const std::string kUncheckedAlgorithm = to_string(Algorithm::Auto) + "_unchecked";
bool has_unchecked_record(const Operation& operation) {
  return operation.handle && operation.vectors == 1 && operation.mode == Mode::NoTranspose &&
         operation.beta == 0.0;
}

// Each of the fp32_fp64 records' fp64 comparison: Auto on the same values stored in double.
const std::string kDoubleValuesAlgorithm = to_string(Algorithm::Auto) + "_fp64_values";
// Auto and Vector with the columns their plans read forced (one vector, mode N): the same kernel on
// A's own columns, on the 16-bit deltas and on the row patterns, so that the records show what each
// form of the columns saves beside Auto's choice.
constexpr Algorithm kForcedColumnsAlgorithms[] = {Algorithm::Auto, Algorithm::Vector};
struct ForcedColumns {
  const char* label;
  Compression compression;
};
constexpr ForcedColumns kForcedColumns[] = {{"_own_columns", Compression::Never},
                                            {"_column_deltas", Compression::ColumnDeltas},
                                            {"_row_patterns", Compression::RowPatterns}};
bool has_forced_columns_records(const Operation& operation) {
  return operation.handle && operation.vectors == 1 && !operation.transposed();
}

// `host` with its values converted to T.
template <class T, class Scalar>
Csr<T> with_values_as(const Csr<Scalar>& host) {
  Csr<T> converted{host.num_rows, host.num_cols, host.row_map, host.entries, {}};
  converted.values.assign(host.values.begin(), host.values.end());
  return converted;
}

// Everything one matrix needs on the device; the workload's calls hold it. kspmv reads A's values
// as MatrixScalar; cuSPARSE, which has no fp32 matrix with fp64 vectors, and the fp64 comparison
// read them as Scalar (a second copy only when the two differ).
template <class Scalar, class MatrixScalar>
struct DeviceState {
  DeviceState(const Csr<Scalar>& host, const std::vector<Scalar>& x_stored, std::size_t y_size)
      : A(with_values_as<MatrixScalar>(host)), x(x_stored), y(y_size) {
    if constexpr (!std::is_same_v<Scalar, MatrixScalar>) {
      A_in_vector_precision = std::make_unique<DeviceCsr<Scalar, Ordinal, Offset>>(host);
    }
  }
  const DeviceCsr<Scalar, Ordinal, Offset>& vector_precision_A() const {
    if constexpr (std::is_same_v<Scalar, MatrixScalar>) {
      return A;
    } else {
      return *A_in_vector_precision;
    }
  }

  DeviceCsr<MatrixScalar, Ordinal, Offset> A;
  std::unique_ptr<DeviceCsr<Scalar, Ordinal, Offset>> A_in_vector_precision;
  DeviceVector<Scalar> x;
  DeviceVector<Scalar> y;
  std::vector<std::unique_ptr<cuda::Plan<Scalar, Ordinal, Offset, MatrixScalar>>> plans;
  std::unique_ptr<cuda::Plan<Scalar, Ordinal, Offset>> vector_precision_plan;
  std::unique_ptr<cuda_graph::CapturedGraph> graph;
  std::vector<std::unique_ptr<CusparseProduct<Scalar>>> cusparse;
};

// n x k in the operation's layout, as the raw API describes it.
template <class Scalar>
cuda::DenseBlock<Scalar> dense_block(Scalar* data, std::int64_t n, const Operation& operation) {
  const std::int64_t k = operation.vectors;
  return operation.layout_right ? cuda::DenseBlock<Scalar>{data, n, k, k, 1}
                                : cuda::DenseBlock<Scalar>{data, n, k, 1, n};
}

// Whether the fp32_fp64 records of `operation` time Auto on the values stored in double too.
bool has_double_values_record(const Operation& operation) {
  return operation.handle;
}

template <class Scalar, class MatrixScalar = Scalar>
std::unique_ptr<Workload<Scalar>> make_workload(cudaStream_t stream, const Csr<Scalar>& host,
                                                const std::vector<Scalar>& x,
                                                const Operation& operation) {
  const std::int64_t x_length = operation.transposed() ? host.num_rows : host.num_cols;
  const std::int64_t y_length = operation.transposed() ? host.num_cols : host.num_rows;
  auto state = std::make_shared<DeviceState<Scalar, MatrixScalar>>(
      host, to_operation_layout(x, x_length, operation),
      static_cast<std::size_t>(y_length * operation.vectors));
  const auto xb = dense_block<const Scalar>(state->x.data(), x_length, operation);
  const auto yb = dense_block<Scalar>(state->y.data(), y_length, operation);
  const Mode mode = operation.mode;
  const auto beta = static_cast<Scalar>(operation.beta);
  auto workload = std::make_unique<Workload<Scalar>>();
  if (!operation.handle) {
    Implementation impl;
    impl.backend = "kspmv";
    impl.algorithm = to_string(Algorithm::Auto);
    impl.call = [state, xb, yb, mode, beta, stream] {
      cuda::apply_without_plan(mode, Scalar(1), state->A.matrix(), xb, beta, yb, stream);
    };
    impl.chosen_algorithm = [transposed = operation.transposed()] {
      return std::string(transposed ? "a plan per call" : "RowBlocks");
    };
    workload->implementations.push_back(std::move(impl));
  }
  // Plan::matrix_bytes_per_call() counts what a one-vector call in mode N or C reads.
  const bool reads_matrix_as_planned =
      operation.vectors == 1 && (mode == Mode::NoTranspose || mode == Mode::Conjugate);
  // A record of calls through `plan`, which `state` keeps, on `matrix` (A's arrays in `state`).
  const auto plan_record = [&](auto* plan, auto matrix, std::string algorithm) {
    Implementation impl;
    impl.backend = "kspmv";
    impl.algorithm = std::move(algorithm);
    impl.call = [state, plan, matrix, xb, yb, mode, beta, stream] {
      plan->apply(mode, Scalar(1), matrix, xb, beta, yb, stream);
    };
    impl.setup_seconds = [plan] { return plan->setup_seconds(); };
    impl.chosen_algorithm = [plan] { return to_string(plan->algorithm()); };
    impl.plan = [plan] { return plan->describe(); };
    if (reads_matrix_as_planned) {
      impl.matrix_bytes = [plan] { return static_cast<double>(plan->matrix_bytes_per_call()); };
    }
    workload->implementations.push_back(std::move(impl));
  };
  // Each plan is built twice and the second kept: the first build of a kind in a process also
  // loads its kernels (CUDA loads a module at its first launch), a cost of the process, not of
  // the plan, which would otherwise fall on whichever record came first.
  const auto add_plan = [&](Algorithm algorithm, cuda::PlanOptions options = {}) {
    cuda::Plan<Scalar, Ordinal, Offset, MatrixScalar>(state->A.matrix(), algorithm, stream,
                                                      options);
    state->plans.push_back(std::make_unique<cuda::Plan<Scalar, Ordinal, Offset, MatrixScalar>>(
        state->A.matrix(), algorithm, stream, options));
    return state->plans.back().get();
  };
  for (const Algorithm algorithm : planned_algorithms(operation)) {
    plan_record(add_plan(algorithm), state->A.matrix(), to_string(algorithm));
  }
  for (const Algorithm algorithm : kForcedColumnsAlgorithms) {
    if (!has_forced_columns_records(operation)) break;
    for (const ForcedColumns& columns : kForcedColumns) {
      plan_record(add_plan(algorithm, {columns.compression}), state->A.matrix(),
                  to_string(algorithm) + columns.label);
    }
  }
  if (has_unchecked_record(operation)) {
    cuda::PlanOptions unchecked;
    unchecked.check_structure = false;
    plan_record(add_plan(Algorithm::Auto, unchecked), state->A.matrix(), kUncheckedAlgorithm);
  }
  if (operation.handle && operation.transposed()) {
    auto* plan = add_plan(Algorithm::Auto);
    plan->set_values_constant(true);
    plan_record(plan, state->A.matrix(), kConstantValuesAlgorithm);
    cuda::PlanOptions atomics_allowed;
    atomics_allowed.deterministic = false;
    plan_record(add_plan(Algorithm::Auto, atomics_allowed), state->A.matrix(), kAtomicAlgorithm);
    for (const ForcedTransposedForm& forced : kForcedTransposedForms) {
      cuda::PlanOptions options;
      options.transposed_form = forced.form;
      auto* forced_plan = add_plan(Algorithm::Auto, options);
      forced_plan->set_values_constant(forced.values_constant);
      plan_record(forced_plan, state->A.matrix(), to_string(Algorithm::Auto) + forced.label);
    }
  }
  if (has_graph_record(operation)) {
    auto* plan = state->plans.front().get();  // Auto's, set up by its record's first call
    Implementation impl;
    impl.backend = "kspmv";
    impl.algorithm = kGraphAlgorithm;
    impl.calls_per_invocation = kGraphCalls;
    impl.call = [state, plan, xb, yb, mode, beta, stream] {
      if (!state->graph) {
        plan->apply(mode, Scalar(1), state->A.matrix(), xb, beta, yb, stream);  // its setup
        state->graph = std::make_unique<cuda_graph::CapturedGraph>(stream, [&] {
          for (int i = 0; i < kGraphCalls; ++i)
            plan->apply(mode, Scalar(1), state->A.matrix(), xb, beta, yb, stream);
        });
      }
      state->graph->launch();
    };
    impl.chosen_algorithm = [plan] { return to_string(plan->algorithm()); };
    impl.plan = [plan] { return plan->describe(); };
    workload->implementations.push_back(std::move(impl));
  }
  if constexpr (!std::is_same_v<Scalar, MatrixScalar>) {
    if (has_double_values_record(operation)) {
      const auto A = state->vector_precision_A().matrix();
      state->vector_precision_plan =
          std::make_unique<cuda::Plan<Scalar, Ordinal, Offset>>(A, Algorithm::Auto, stream);
      plan_record(state->vector_precision_plan.get(), A, kDoubleValuesAlgorithm);
    }
  }
  for (const std::string& name : cusparse_algorithm_names(operation.vectors)) {
    state->cusparse.push_back(std::make_unique<CusparseProduct<Scalar>>(
        state->vector_precision_A(), state->x.data(), state->y.data(),
        DenseShape{operation.vectors, operation.layout_right}, name,
        cusparse_operation(operation.mode), beta, stream));
    auto* spmv = state->cusparse.back().get();
    Implementation impl;
    impl.backend = "cuSPARSE";
    impl.algorithm = name;
    impl.call = [state, spmv] { spmv->apply(); };
    impl.setup_seconds = [spmv] { return spmv->setup_seconds(); };
    impl.chosen_algorithm = [label = impl.algorithm] { return label; };
    workload->implementations.push_back(std::move(impl));
  }
  workload->set_y = [state, y_length, operation](const std::vector<Scalar>& by_column) {
    const auto stored = to_operation_layout(by_column, y_length, operation);
    check(cudaMemcpy(state->y.data(), stored.data(), stored.size() * sizeof(Scalar),
                     cudaMemcpyHostToDevice),
          "set y");
  };
  workload->download_y = [state, stream, y_length, operation] {
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return from_operation_layout(state->y.download(), y_length, operation);
  };
  return workload;
}

class CudaDriver final : public Driver {
 public:
  CudaDriver() {
    check(cudaStreamCreate(&stream_), "cudaStreamCreate");
    clock_ = std::make_shared<EventClock>(stream_);
  }
  ~CudaDriver() override { cudaStreamDestroy(stream_); }
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  DeviceDescription describe() const override {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    DeviceDescription d;
    d.harness = "cuda";
    d.execution_space = "CUDA";
    d.name = std::string(properties.name) + " (sm_" + std::to_string(properties.major) +
             std::to_string(properties.minor) + ", " +
             std::to_string(properties.multiProcessorCount) + " SMs)";
    d.concurrency = properties.multiProcessorCount * properties.maxThreadsPerMultiProcessor;
    d.last_level_cache_bytes = static_cast<double>(properties.l2CacheSize);
    d.compiler = compiler_description();
    d.library_versions = "none";
    return d;
  }
  std::vector<std::string> implementation_labels(const Operation& operation) const override {
    return labels(operation, false);
  }
  std::vector<std::string> single_precision_matrix_labels(
      const Operation& operation) const override {
    return labels(operation, true);
  }
  BatchClock clock() const override {
    return [clock = clock_](const std::function<void()>& call, long calls) {
      return clock->seconds(call, calls);
    };
  }
  std::function<void()> copy_kernel(double bytes) override {
    const auto half = static_cast<std::size_t>(bytes / 2);
    auto from = std::make_shared<DeviceVector<unsigned char>>(half);
    auto to = std::make_shared<DeviceVector<unsigned char>>(half);
    check(cudaMemset(from->data(), 1, half), "cudaMemset");
    return [from, to, half, stream = stream_] {
      check(cudaMemcpyAsync(to->data(), from->data(), half, cudaMemcpyDeviceToDevice, stream),
            "copy");
    };
  }
  std::function<void()> empty_kernel() override {
    return [stream = stream_] { launch_empty_kernel(stream); };
  }
  std::unique_ptr<Workload<double>> load(const Csr<double>& host, const std::vector<double>& x,
                                         const Operation& operation) override {
    return make_workload(stream_, host, x, operation);
  }
  std::unique_ptr<Workload<float>> load(const Csr<float>& host, const std::vector<float>& x,
                                        const Operation& operation) override {
    return make_workload(stream_, host, x, operation);
  }
  std::unique_ptr<Workload<std::complex<double>>> load(const Csr<std::complex<double>>& host,
                                                       const std::vector<std::complex<double>>& x,
                                                       const Operation& operation) override {
    return make_workload(stream_, host, x, operation);
  }
  std::unique_ptr<Workload<std::complex<float>>> load(const Csr<std::complex<float>>& host,
                                                      const std::vector<std::complex<float>>& x,
                                                      const Operation& operation) override {
    return make_workload(stream_, host, x, operation);
  }
  std::unique_ptr<Workload<double>> load_single_precision_matrix(
      const Csr<double>& host, const std::vector<double>& x, const Operation& operation) override {
    return make_workload<double, float>(stream_, host, x, operation);
  }

 private:
  // In make_workload's order.
  static std::vector<std::string> labels(const Operation& operation, bool single_precision_matrix) {
    std::vector<std::string> labels;
    if (!operation.handle) labels.push_back("kspmv/" + std::string(to_string(Algorithm::Auto)));
    for (const Algorithm algorithm : planned_algorithms(operation))
      labels.push_back("kspmv/" + to_string(algorithm));
    for (const Algorithm algorithm : kForcedColumnsAlgorithms) {
      if (!has_forced_columns_records(operation)) break;
      for (const ForcedColumns& columns : kForcedColumns)
        labels.push_back("kspmv/" + to_string(algorithm) + columns.label);
    }
    if (has_unchecked_record(operation)) labels.push_back("kspmv/" + kUncheckedAlgorithm);
    if (operation.handle && operation.transposed()) {
      labels.push_back("kspmv/" + kConstantValuesAlgorithm);
      labels.push_back("kspmv/" + kAtomicAlgorithm);
      for (const ForcedTransposedForm& forced : kForcedTransposedForms)
        labels.push_back("kspmv/" + to_string(Algorithm::Auto) + forced.label);
    }
    if (has_graph_record(operation)) labels.push_back("kspmv/" + kGraphAlgorithm);
    if (single_precision_matrix && has_double_values_record(operation))
      labels.push_back("kspmv/" + kDoubleValuesAlgorithm);
    for (const std::string& name : cusparse_algorithm_names(operation.vectors))
      labels.push_back("cuSPARSE/" + name);
    return labels;
  }

  cudaStream_t stream_ = nullptr;
  std::shared_ptr<EventClock> clock_;
};

}  // namespace
}  // namespace kspmv::bench

int main(int argc, char** argv) {
  kspmv::bench::CommandLine command_line;
  if (const auto status = kspmv::bench::parse_or_explain(argc, argv, command_line)) return *status;
  // A machine with no usable CUDA device (none, or a driver older than this runtime) gets a status
  // of its own, so that a test of this program can report itself skipped there (CTest's
  // SKIP_RETURN_CODE), as the CUDA unit tests do.
  constexpr int kNoCudaDevice = 77;
  int devices = 0;
  if (const cudaError_t error = cudaGetDeviceCount(&devices);
      error != cudaSuccess || devices == 0) {
    std::cerr << "kspmv_cuda_bench: no usable CUDA device: "
              << (error != cudaSuccess ? cudaGetErrorString(error) : "none found") << '\n';
    return kNoCudaDevice;
  }
  try {
    kspmv::bench::CudaDriver driver;
    return kspmv::bench::run_suite(command_line, driver, argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "kspmv_cuda_bench: " << e.what() << '\n';
    return 1;
  }
}
