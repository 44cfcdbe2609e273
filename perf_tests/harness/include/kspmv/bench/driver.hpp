#pragma once
// What a benchmark program supplies to the harness: how to put a matrix on its device, which
// implementations it times there, and a clock that brackets a batch of calls with the device's own
// fences. Everything else (which matrices, the timing policy, correctness against the reference
// oracle, the byte model, the report) is the harness's, so the Kokkos driver and the Kokkos-free
// CUDA benchmark measure alike.

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kspmv/bench/operation.hpp"
#include "kspmv/matrices/host_csr.hpp"

namespace kspmv::bench {

using Ordinal = std::int32_t;
using Offset = std::int32_t;
template <class Scalar>
using Csr = matrices::HostCsr<Scalar, Ordinal, Offset>;

// A kspmv algorithm or a baseline library's SpMV of one operation on one matrix.
struct Implementation {
  std::string backend;         // kspmv, KokkosKernels, cuSPARSE
  std::string algorithm;       // as requested
  std::function<void()> call;  // enqueues one call; the first one may set the implementation up
  std::function<double()> setup_seconds = [] { return NAN; };  // NaN: no separate setup
  std::function<std::string()> chosen_algorithm;               // what the first call chose
  // What the first call's plan says of itself (Handle::describe()); empty for the baselines.
  std::function<std::string()> plan = [] { return std::string(); };
  // Bytes of A one call reads in the form the implementation keeps it, after the first call; NaN
  // where that is A's CSR arrays once, as the byte model counts them.
  std::function<double()> matrix_bytes = [] { return NAN; };
  // `call` enqueues this many SpMVs (a replayed CUDA graph of several): times are per SpMV. Only
  // for operations with beta == 0, where repeating a call leaves the oracle's result.
  int calls_per_invocation = 1;

  std::string label() const { return backend + "/" + algorithm; }
};

// One operation on one matrix in one precision on the device, with x uploaded and y allocated.
template <class Scalar>
struct Workload {
  // In the order of Driver::implementation_labels(operation).
  std::vector<Implementation> implementations;
  // y's values column by column (to_operation_layout converts), synchronously.
  std::function<void(const std::vector<Scalar>&)> set_y;
  std::function<std::vector<Scalar>()> download_y;  // column by column (from_operation_layout)
};

// Runs `calls` calls back to back between two fences of the device; returns the seconds between.
using BatchClock = std::function<double(const std::function<void()>& call, long calls)>;

struct DeviceDescription {
  std::string harness;          // kokkos, cuda
  std::string execution_space;  // Kokkos' name of the space, or CUDA
  std::string name;             // model, with compute capability and SMs for a GPU
  int concurrency = 1;
  double last_level_cache_bytes = 0;  // 0: unknown
  std::string compiler;
  std::string library_versions;  // e.g. "Kokkos 4.6.1, Kokkos Kernels 4.6.2"; "none"
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual DeviceDescription describe() const = 0;
  // backend/algorithm of every implementation of an operation, the same for every matrix. The
  // first baseline (a backend other than kspmv) is the reference every other record is timed
  // beside.
  virtual std::vector<std::string> implementation_labels(const Operation& operation) const = 0;
  virtual BatchClock clock() const = 0;
  // A copy of `bytes` bytes read plus written, its buffers held by the returned call: the
  // bandwidth ceiling of the roofline.
  virtual std::function<void()> copy_kernel(double bytes) = 0;
  // A kernel that does nothing, launched where the implementations launch theirs: the floor under
  // every call's time.
  virtual std::function<void()> empty_kernel() = 0;
  // `host` and `x` outlive the workload; x holds operation.vectors columns one after the other.
  virtual std::unique_ptr<Workload<double>> load(const Csr<double>& host,
                                                 const std::vector<double>& x,
                                                 const Operation& operation) = 0;
  virtual std::unique_ptr<Workload<float>> load(const Csr<float>& host, const std::vector<float>& x,
                                                const Operation& operation) = 0;
  virtual std::unique_ptr<Workload<std::complex<double>>> load(
      const Csr<std::complex<double>>& host, const std::vector<std::complex<double>>& x,
      const Operation& operation) = 0;
  virtual std::unique_ptr<Workload<std::complex<float>>> load(
      const Csr<std::complex<float>>& host, const std::vector<std::complex<float>>& x,
      const Operation& operation) = 0;

  // The "fp32_fp64" records: A's values in single precision with x and y in double. `host` holds
  // the values as doubles that floats represent exactly, so that the double oracle is the answer;
  // the driver stores them as floats for kspmv (and may give baselines the doubles). A driver
  // without such a call returns no labels, and the precision is not measured.
  virtual std::vector<std::string> single_precision_matrix_labels(const Operation&) const {
    return {};
  }
  virtual std::unique_ptr<Workload<double>> load_single_precision_matrix(
      const Csr<double>& /*host*/, const std::vector<double>& /*x*/, const Operation& /*op*/) {
    throw std::logic_error("this driver has no fp32 matrices with fp64 vectors");
  }
};

}  // namespace kspmv::bench
