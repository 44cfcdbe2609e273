#include "kspmv/bench/run_suite.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kspmv/bench/byte_model.hpp"
#include "kspmv/bench/compact_console.hpp"
#include "kspmv/bench/host_info.hpp"
#include "kspmv/bench/operation.hpp"
#include "kspmv/bench/suite.hpp"
#include "kspmv/matrices/generators.hpp"
#include "kspmv/matrices/matrix_market.hpp"
#include "kspmv/reference/spmv_reference.hpp"

namespace kspmv::bench {
namespace {

constexpr const char* schema = "kspmv-bench/4";

std::string number_text(double value) {
  std::ostringstream text;
  text << std::setprecision(12) << value;
  return text.str();
}

// Records of fp32 matrices with fp64 vectors are Scalar double with `single_precision_values`.
template <class Scalar>
std::string precision_name(bool single_precision_values = false) {
  if (single_precision_values) return "fp32_fp64";
  if constexpr (matrices::is_complex_v<Scalar>) {
    return sizeof(Scalar) == 16 ? "c128" : "c64";
  } else {
    return sizeof(Scalar) == 8 ? "fp64" : "fp32";
  }
}

// `text` as the value of a label field: the label separates its fields with ';', so a plan's
// description, whose clauses end in ';', has them end in ',' there.
std::string label_field(std::string text) {
  std::replace(text.begin(), text.end(), ';', ',');
  return text;
}

// 64-bit FNV-1a of `size` bytes: a hash of exact bits, so that two builds that must compute the
// same y (a restructuring) can be compared record by record without storing y.
std::uint64_t fnv1a_64(const void* bytes, std::size_t size) {
  constexpr std::uint64_t offset_basis = 0xcbf29ce484222325ull;
  constexpr std::uint64_t prime = 0x100000001b3ull;
  std::uint64_t hash = offset_basis;
  const auto* byte = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ byte[i]) * prime;
  return hash;
}

// The counter y_hash: the high 48 bits of FNV-1a over y's bytes as downloaded (column by column).
// A counter is a double, which holds integers below 2^53 exactly; the high bits, because the
// multiplication carries every byte into them while a low bit sees only the bits below it.
template <class Scalar>
double y_hash(const std::vector<Scalar>& y) {
  return static_cast<double>(fnv1a_64(y.data(), y.size() * sizeof(Scalar)) >> 16);
}

// What y holds before a call with beta == 0, which must overwrite it.
template <class Scalar>
Scalar not_a_number() {
  if constexpr (matrices::is_complex_v<Scalar>) {
    const auto nan = std::numeric_limits<typename Scalar::value_type>::quiet_NaN();
    return {nan, nan};
  } else {
    return std::numeric_limits<Scalar>::quiet_NaN();
  }
}

// A deterministic vector with values (real and imaginary parts) in [-1, 1): x, and y's start when
// beta != 0.
template <class Scalar>
std::vector<Scalar> test_vector(std::int64_t n, std::uint64_t seed) {
  std::vector<Scalar> v(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) v[j] = matrices::generated_value<Scalar>(seed, j);
  return v;
}

// A matrix of the suite in one precision on the host, generated or read by the first record that
// needs it; nullptr from get() when it cannot be measured (a complex or malformed file). With
// `single_precision_values` (double only) every value is rounded to float, so that a driver can
// store it in single precision and the double oracle still holds the exact answer.
template <class Scalar>
class HostMatrix {
 public:
  explicit HostMatrix(MatrixSource source, bool single_precision_values = false)
      : source_(std::move(source)), single_precision_values_(single_precision_values) {}

  const MatrixSource& source() const { return source_; }
  const std::string& skip_reason() const { return skip_reason_; }
  bool single_precision_values() const { return single_precision_values_; }

  const Csr<Scalar>* get() {
    if (!attempted_) {
      attempted_ = true;
      std::cerr << (source_.generator ? "generating " : "reading ") << source_.name << " "
                << precision_name<Scalar>(single_precision_values_) << std::endl;
      try {
        csr_ = std::make_unique<Csr<Scalar>>(
            source_.generator
                ? matrices::generate<Scalar, Ordinal, Offset>(*source_.generator)
                : matrices::read_matrix_market<Scalar, Ordinal, Offset>(source_.path));
        if constexpr (std::is_same_v<Scalar, double>) {
          if (single_precision_values_) {
            for (double& v : csr_->values) v = static_cast<double>(static_cast<float>(v));
          }
        }
      } catch (const std::invalid_argument& e) {  // parse_error is one
        skip_reason_ = e.what();
      }
    }
    return csr_.get();
  }

 private:
  MatrixSource source_;
  bool single_precision_values_;
  bool attempted_ = false;
  std::unique_ptr<Csr<Scalar>> csr_;
  std::string skip_reason_;
};

// One operation on one matrix in one precision, put on the device by the first record that needs
// it (records of all matrices interleave, so it stays there until the run ends).
template <class Scalar>
class OperationOnDevice {
 public:
  struct Loaded {
    const Csr<Scalar>* host = nullptr;
    std::vector<Scalar> x;
    std::vector<Scalar> y_start;  // y before each checked call: NaN when beta is 0
    reference::Result<Scalar> expected;
    SpmvShape shape;
    std::unique_ptr<Workload<Scalar>> workload;
  };

  OperationOnDevice(std::shared_ptr<HostMatrix<Scalar>> matrix, Operation operation, Driver& driver)
      : matrix_(std::move(matrix)), operation_(operation), driver_(driver) {}

  const HostMatrix<Scalar>& matrix() const { return *matrix_; }
  const Operation& operation() const { return operation_; }

  // nullptr when the matrix cannot be measured: see matrix().skip_reason().
  Loaded* get() {
    if (!loaded_ && matrix_->get()) load(*matrix_->get());
    return loaded_.get();
  }

 private:
  void load(const Csr<Scalar>& host) {
    constexpr std::uint64_t x_seed = 0x5eed;
    constexpr std::uint64_t y_seed = 0xbeef5eed;
    auto loaded = std::make_unique<Loaded>();
    const bool transposed = operation_.transposed();
    const auto x_length = transposed ? host.num_rows : host.num_cols;
    const auto y_length = transposed ? host.num_cols : host.num_rows;
    const std::int64_t k = operation_.vectors;
    loaded->host = &host;
    loaded->x = test_vector<Scalar>(x_length * k, x_seed);
    loaded->y_start =
        operation_.beta != 0
            ? test_vector<Scalar>(y_length * k, y_seed)
            : std::vector<Scalar>(static_cast<std::size_t>(y_length * k), not_a_number<Scalar>());
    const reference::CsrArrays<Scalar, Ordinal, Offset> arrays{
        host.num_rows, host.num_cols, host.row_map.data(), host.entries.data(), host.values.data()};
    const reference::Block<Scalar> x{x_length, k, loaded->x};
    const reference::Block<Scalar> y{y_length, k, loaded->y_start};
    loaded->expected = reference::spmv(operation_.mode, Scalar(1), arrays, x,
                                       static_cast<Scalar>(operation_.beta), y);
    const bool single_precision_values = matrix_->single_precision_values();
    loaded->shape = SpmvShape{
        host.num_rows,
        host.num_cols,
        host.num_entries(),
        k,
        static_cast<std::int64_t>(sizeof(Scalar)),
        static_cast<std::int64_t>(single_precision_values ? sizeof(float) : sizeof(Scalar)),
        static_cast<std::int64_t>(sizeof(Ordinal)),
        static_cast<std::int64_t>(sizeof(Offset)),
        operation_.beta != 0,
        transposed};
    if constexpr (std::is_same_v<Scalar, double>) {
      loaded->workload = single_precision_values
                             ? driver_.load_single_precision_matrix(host, loaded->x, operation_)
                             : driver_.load(host, loaded->x, operation_);
    } else {
      loaded->workload = driver_.load(host, loaded->x, operation_);
    }
    loaded_ = std::move(loaded);
  }

  std::shared_ptr<HostMatrix<Scalar>> matrix_;
  Operation operation_;
  Driver& driver_;
  std::unique_ptr<Loaded> loaded_;
};

struct Timing {
  int batches = 5;
  int warmup_calls = 3;
  double min_batch_seconds = 0.002;
  double kspmv_slowdown = 1.0;
};

// What a record learns on its first repetition and keeps for the others.
struct RecordState {
  bool checked = false;
  std::string wrong_result;  // the oracle's message; empty when correct
  double relative_error = NAN;
  double y_hash = NAN;  // of the first call's y: see y_hash()
  long calls_per_batch = 0;
  long reference_calls_per_batch = 0;
  double planted_calls = 0;  // the fraction of a call a planted slowdown carries over
};

// Calls per batch: doubled (or grown to the estimate) until a batch lasts min_seconds.
long calibrate_batch(const BatchClock& clock, const std::function<void()>& call,
                     double min_seconds) {
  constexpr long max_calls = 1 << 20;
  long calls = 1;
  for (double seconds = clock(call, calls); seconds < min_seconds && calls < max_calls;
       seconds = clock(call, calls)) {
    const double wanted = 1.2 * min_seconds / std::max(seconds, 1e-9);
    calls = std::min(max_calls, std::max(2 * calls, static_cast<long>(std::ceil(calls * wanted))));
  }
  return calls;
}

template <class Scalar>
void check_first_call(Workload<Scalar>& workload, Implementation& impl,
                      const typename OperationOnDevice<Scalar>::Loaded& loaded,
                      RecordState& record) {
  workload.set_y(loaded.y_start);
  impl.call();
  const reference::Block<Scalar> got{loaded.expected.value.n, loaded.expected.value.k,
                                     workload.download_y()};
  record.y_hash = y_hash(got.data);
  record.relative_error = reference::relative_error(loaded.expected, got);
  record.wrong_result = reference::compare(loaded.expected, got);
  record.checked = true;
}

struct Suite {
  Driver& driver;
  Timing timing;
  std::string reference;  // --reference; empty: the first baseline
  int wrong_results = 0;
};

// Batches of back-to-back calls of one implementation, timed per call. A planted slowdown runs
// slowdown * counted calls a batch on average: whole calls, the fraction carried to the next batch,
// so that a batch of one long call is slowed too.
class Batches {
 public:
  Batches(const BatchClock& clock, const Implementation& timed, long counted, double slowdown,
          double& carried)
      : clock_(clock), timed_(timed), counted_(counted), slowdown_(slowdown), carried_(carried) {}

  double seconds_per_call() {
    carried_ += static_cast<double>(counted_) * slowdown_;
    const auto calls = static_cast<long>(carried_);
    carried_ -= static_cast<double>(calls);
    return clock_(timed_.call, calls) /
           (static_cast<double>(counted_) * timed_.calls_per_invocation);
  }

 private:
  const BatchClock& clock_;
  const Implementation& timed_;
  long counted_;
  double slowdown_;
  double& carried_;
};

// The first call of a record: checked against the oracle and, when right, the batch size chosen.
// False when the record cannot be timed (state skipped with the reason).
template <class Scalar>
bool ready(benchmark::State& state, Suite& suite,
           typename OperationOnDevice<Scalar>::Loaded& loaded, Implementation& impl,
           const std::string& name, RecordState& record) {
  if (!record.checked) {
    check_first_call(*loaded.workload, impl, loaded, record);
    if (!record.wrong_result.empty()) {
      // A baseline's wrong result is a finding about that library, reported and kept in the
      // JSON; only kspmv's fail the run.
      if (impl.backend == "kspmv") ++suite.wrong_results;
      std::cerr << "WRONG RESULT " << name << ": " << record.wrong_result << std::endl;
    } else {
      record.calls_per_batch =
          calibrate_batch(suite.driver.clock(), impl.call, suite.timing.min_batch_seconds);
    }
  }
  if (!record.wrong_result.empty()) {
    state.SkipWithError(("wrong result: " + record.wrong_result).c_str());
    return false;
  }
  return true;
}

void report_counters(benchmark::State& state, const SpmvShape& shape, const Operation& operation,
                     const RecordState& record, double setup_seconds, double matrix_bytes,
                     double reference_seconds_per_call) {
  state.counters["transposed"] = operation.transposed() ? 1 : 0;
  state.counters["beta"] = operation.beta;
  state.counters["handle"] = operation.handle ? 1 : 0;
  state.counters["rows"] = static_cast<double>(shape.rows);
  state.counters["cols"] = static_cast<double>(shape.cols);
  state.counters["nnz"] = static_cast<double>(shape.nnz);
  state.counters["vectors"] = static_cast<double>(shape.vectors);
  state.counters["layout_right"] = operation.layout_right ? 1 : 0;
  state.counters["scalar_bytes"] = static_cast<double>(shape.scalar_bytes);
  state.counters["value_bytes"] = static_cast<double>(shape.value_bytes);
  state.counters["ordinal_bytes"] = static_cast<double>(shape.ordinal_bytes);
  state.counters["offset_bytes"] = static_cast<double>(shape.offset_bytes);
  state.counters["compulsory_bytes"] = compulsory_bytes(shape);
  if (!std::isnan(matrix_bytes)) state.counters["read_bytes"] = read_bytes(shape, matrix_bytes);
  state.counters["calls_per_batch"] = static_cast<double>(record.calls_per_batch);
  state.counters["relative_error"] = record.relative_error;
  state.counters["y_hash"] = record.y_hash;
  if (!std::isnan(setup_seconds)) state.counters["setup_seconds"] = setup_seconds;
  if (!std::isnan(reference_seconds_per_call)) {
    state.counters["reference_seconds_per_call"] = reference_seconds_per_call;
  }
  state.SetBytesProcessed(
      static_cast<std::int64_t>(compulsory_bytes(shape) * static_cast<double>(state.iterations())));
}

template <class Scalar>
void measure_record(benchmark::State& state, Suite& suite, OperationOnDevice<Scalar>& operation,
                    std::size_t index, std::optional<std::size_t> reference_index,
                    const std::string& name, RecordState& record) {
  auto* loaded = operation.get();
  if (loaded == nullptr) {
    state.SkipWithError(("skipped: " + operation.matrix().skip_reason()).c_str());
    return;
  }
  auto& implementations = loaded->workload->implementations;
  Implementation& impl = implementations.at(index);
  if (!ready<Scalar>(state, suite, *loaded, impl, name, record)) return;

  const BatchClock clock = suite.driver.clock();
  const double slowdown = impl.backend == "kspmv" ? suite.timing.kspmv_slowdown : 1.0;
  Batches batches(clock, impl, record.calls_per_batch, slowdown, record.planted_calls);
  clock(impl.call, suite.timing.warmup_calls);
  // The reference (the driver's first baseline) runs batch by batch with the record, in ABBA
  // order, so that the ratio of the two sees the same machine: load from other work, clock changes
  // and the operands' placement in memory cancel in it.
  std::optional<Batches> reference;
  double no_carry = 0;  // the reference is never slowed: whole batches, nothing to carry
  if (reference_index && *reference_index != index) {
    Implementation& timed = implementations.at(*reference_index);
    if (record.reference_calls_per_batch == 0) {
      timed.call();  // its setup, when its own record has not run yet
      record.reference_calls_per_batch =
          calibrate_batch(clock, timed.call, suite.timing.min_batch_seconds);
    }
    clock(timed.call, suite.timing.warmup_calls);
    reference.emplace(clock, timed, record.reference_calls_per_batch, 1.0, no_carry);
  }

  double reference_seconds = 0;
  bool reference_first = false;
  for (auto _ : state) {
    if (reference && reference_first) reference_seconds += reference->seconds_per_call();
    state.SetIterationTime(batches.seconds_per_call());
    if (reference && !reference_first) reference_seconds += reference->seconds_per_call();
    reference_first = !reference_first;
  }

  report_counters(state, loaded->shape, operation.operation(), record, impl.setup_seconds(),
                  impl.matrix_bytes(),
                  reference ? reference_seconds / static_cast<double>(state.iterations()) : NAN);
  const MatrixSource& source = operation.matrix().source();
  state.SetLabel("chosen=" + impl.chosen_algorithm() +
                 ";source=" + (source.generator ? std::string("generated") : source.path) +
                 ";reference=" + (reference ? implementations.at(*reference_index).label() : "") +
                 ";plan=" + label_field(impl.plan()));
}

// The index among an operation's implementations that every other record of the operation is
// timed beside: the chosen one where the operation has it, else the first baseline.
std::optional<std::size_t> reference_of(const std::vector<std::string>& labels,
                                        const std::string& chosen) {
  const auto found = std::find(labels.begin(), labels.end(), chosen);
  if (found != labels.end()) return static_cast<std::size_t>(found - labels.begin());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i].rfind("kspmv/", 0) != 0) return i;
  }
  return std::nullopt;
}

template <class Scalar>
void register_matrix(Suite& suite, const MatrixSource& source,
                     bool single_precision_values = false) {
  auto matrix = std::make_shared<HostMatrix<Scalar>>(source, single_precision_values);
  for (const Operation& op : suite_operations(matrices::is_complex_v<Scalar>)) {
    auto operation = std::make_shared<OperationOnDevice<Scalar>>(matrix, op, suite.driver);
    const auto labels = single_precision_values ? suite.driver.single_precision_matrix_labels(op)
                                                : suite.driver.implementation_labels(op);
    const auto reference = reference_of(labels, suite.reference);
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const std::string name = source.name + "/" + labels[i] + "/" +
                               precision_name<Scalar>(single_precision_values) + "/" + op.name();
      auto record = std::make_shared<RecordState>();
      benchmark::RegisterBenchmark(
          name.c_str(),
          [&suite, operation, i, reference, name, record](benchmark::State& state) {
            measure_record(state, suite, *operation, i, reference, name, *record);
          })
          ->Iterations(suite.timing.batches)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

// Each iteration of `state` one batch of `calls` back-to-back calls, its time per call the
// iteration's manual time; the fastest batch as "best_seconds" (other work only ever slows one).
void time_batches(benchmark::State& state, const BatchClock& clock,
                  const std::function<void()>& call, long calls) {
  double best = std::numeric_limits<double>::infinity();
  for (auto _ : state) {
    const double seconds = clock(call, calls) / static_cast<double>(calls);
    best = std::min(best, seconds);
    state.SetIterationTime(seconds);
  }
  state.counters["best_seconds"] = best;
}

// The roofline's ceiling, measured in the same run on the same device: a large copy, bytes read
// plus written per second. Other work only ever slows a copy down, so the ceiling is the fastest
// single copy (best_seconds): on a shared 2-core machine the median of 15 copies varied by 40%
// over six runs, the fastest by 5%.
void register_copy_bandwidth(Suite& suite, double bytes) {
  auto copy = std::make_shared<std::function<void()>>();
  benchmark::RegisterBenchmark("copy_bandwidth",
                               [&suite, copy, bytes](benchmark::State& state) {
                                 if (!*copy) *copy = suite.driver.copy_kernel(bytes);
                                 const BatchClock clock = suite.driver.clock();
                                 clock(*copy, 1);
                                 time_batches(state, clock, *copy, 1);
                                 state.counters["bytes_per_copy"] = bytes;
                                 state.SetBytesProcessed(static_cast<std::int64_t>(
                                     bytes * static_cast<double>(state.iterations())));
                               })
      ->Iterations(15)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

// The launch floor, measured in the same run on the same instance: the driver's empty kernel,
// timed as a record is (batches of back-to-back calls, seconds per call). Its fastest batch, as
// the copy's: other work only slows it. Where a call takes little more than this, the time above
// it is what is left to win (summary.py shows it).
void register_launch_floor(Suite& suite) {
  auto empty = std::make_shared<std::function<void()>>();
  auto calls = std::make_shared<long>(0);
  benchmark::RegisterBenchmark("launch_floor",
                               [&suite, empty, calls](benchmark::State& state) {
                                 const BatchClock clock = suite.driver.clock();
                                 if (!*empty) {
                                   *empty = suite.driver.empty_kernel();
                                   *calls = calibrate_batch(clock, *empty,
                                                            suite.timing.min_batch_seconds);
                                 }
                                 time_batches(state, clock, *empty, *calls);
                               })
      ->Iterations(suite.timing.batches)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

void add_context(const Options& options, const DeviceDescription& device, int argc, char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const std::pair<const char*, std::string> entries[] = {
      {"kspmv_schema", schema},
      {"suite", options.suite},
      {"harness", device.harness},
      {"execution_space", device.execution_space},
      {"device_name", device.name},
      {"concurrency", std::to_string(device.concurrency)},
      {"last_level_cache_bytes", number_text(device.last_level_cache_bytes)},
      {"compiler", device.compiler},
      {"kokkos_version", device.library_versions},
      {"git_commit", options.git_commit.empty() ? KSPMV_BENCH_GIT_COMMIT : options.git_commit},
      {"scale", number_text(options.scale)},
      {"alpha", "1"},
      {"plant_slowdown", number_text(options.plant_slowdown)},
      {"command_line", command},
      {"started_utc", utc_now()},
  };
  for (const auto& [key, value] : entries) benchmark::AddCustomContext(key, value);
}

// Google Benchmark's arguments: the suite's defaults first, so that flags given later win.
std::vector<std::string> benchmark_arguments(const CommandLine& command_line,
                                             const std::string& program) {
  const Options& options = command_line.options;
  std::vector<std::string> args{program,
                                "--benchmark_repetitions=" + std::to_string(options.repetitions),
                                "--benchmark_enable_random_interleaving=true"};
  if (!options.output_dir.empty()) {
    std::filesystem::create_directories(options.output_dir);
    args.push_back("--benchmark_out=" + options.output_dir + "/run.json");
    args.push_back("--benchmark_out_format=json");
  }
  for (const auto& arg : command_line.passthrough) {
    if (arg.rfind("--benchmark_", 0) == 0) args.push_back(arg);
  }
  return args;
}

// Whether the display is Google Benchmark's console format (the default), which the compact
// reporter replaces; other formats (--benchmark_format=json, csv) stay Google Benchmark's own.
bool console_output(const CommandLine& command_line) {
  bool console = true;
  for (const auto& arg : command_line.passthrough) {
    if (arg.rfind("--benchmark_format=", 0) == 0) console = arg == "--benchmark_format=console";
  }
  return console;
}

}  // namespace

std::optional<int> parse_or_explain(int argc, char** argv, CommandLine& command_line) {
  const std::string program = std::filesystem::path(argv[0]).filename().string();
  try {
    command_line = parse_command_line(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return 2;
  }
  if (command_line.help) {
    std::cout << usage(program);
    return 0;
  }
  return std::nullopt;
}

int run_suite(const CommandLine& command_line, Driver& driver, int argc, char** argv) {
  const Options& options = command_line.options;
  auto args = benchmark_arguments(command_line, argv[0]);
  std::vector<char*> pointers;
  for (auto& arg : args) pointers.push_back(arg.data());
  int count = static_cast<int>(pointers.size());
  benchmark::Initialize(&count, pointers.data());
  if (benchmark::ReportUnrecognizedArguments(count, pointers.data())) return 2;

  std::vector<MatrixSource> sources;
  try {
    sources = suite_matrices(options);
  } catch (const std::invalid_argument& e) {
    std::cerr << argv[0] << ": " << e.what() << "\n";
    return 2;
  }
  if (!options.reference.empty()) {
    std::set<std::string> labels;
    for (const bool complex_values : {false, true}) {
      for (const Operation& op : suite_operations(complex_values)) {
        for (auto& label : driver.implementation_labels(op)) labels.insert(std::move(label));
      }
    }
    if (labels.count(options.reference) == 0) {
      std::cerr << argv[0] << ": --reference " << options.reference
                << " is none of this driver's implementations:";
      for (const auto& label : labels) std::cerr << " " << label;
      std::cerr << "\n";
      return 2;
    }
  }
  const DeviceDescription device = driver.describe();
  add_context(options, device, argc, argv);
  Suite suite{
      driver,
      {options.batches, options.warmup_calls, options.min_batch_seconds, options.plant_slowdown},
      options.reference};
  register_copy_bandwidth(suite, options.copy_bytes);
  register_launch_floor(suite);
  const bool single_precision_matrices =
      std::find(options.precisions.begin(), options.precisions.end(), "fp32_fp64") !=
      options.precisions.end();
  if (single_precision_matrices && driver.single_precision_matrix_labels(Operation{}).empty()) {
    std::cerr << argv[0] << ": this driver does not measure fp32_fp64; its records are left out\n";
  }
  for (const auto& source : sources) {
    for (const auto& precision : options.precisions) {
      if (precision == "fp64") {
        register_matrix<double>(suite, source);
      } else if (precision == "fp32") {
        register_matrix<float>(suite, source);
      } else if (precision == "fp32_fp64") {
        register_matrix<double>(suite, source, true);
      } else if (precision == "c128") {
        register_matrix<std::complex<double>>(suite, source);
      } else {
        register_matrix<std::complex<float>>(suite, source);
      }
    }
  }
  std::cerr << "kspmv suite '" << options.suite << "' on " << device.name << " ("
            << device.execution_space << ")" << std::endl;
  std::size_t records = 0;
  if (console_output(command_line)) {
    CompactConsoleReporter console;
    records = benchmark::RunSpecifiedBenchmarks(&console);
  } else {
    records = benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  benchmark::ClearRegisteredBenchmarks();  // the workloads go before the device does
  // Google Benchmark then writes an empty --benchmark_out and exits 0: a run that measured nothing
  // must not pass for one that did.
  if (records == 0) {
    std::cerr << argv[0]
              << ": no record matches --benchmark_filter (a record's full name ends in "
                 "/iterations:N/manual_time: end a pattern with '/' rather than '$')\n";
    return 2;
  }
  if (suite.wrong_results > 0) {
    std::cerr << suite.wrong_results << " kspmv record(s) computed a wrong result\n";
    return 3;
  }
  return 0;
}

}  // namespace kspmv::bench
