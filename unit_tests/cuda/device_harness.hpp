#pragma once
// Test harness for the CUDA backend's raw-pointer API: device copies of host inputs, output blocks
// poisoned around their elements, and one call checked against the long-double reference.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/without_plan.hpp"
#include "kspmv/cuda_graph/captured_graph.hpp"
#include "kspmv/reference/spmv_reference.hpp"
#include "random_csr.hpp"

namespace kspmv::cuda::testing {

using kspmv::testing::HostCsr;
using reference::Block;

inline bool gpu_available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// Without a GPU (CI) every test skips, so ctest reports it as skipped, never as passed.
#define KSPMV_SKIP_WITHOUT_GPU() \
  if (!::kspmv::cuda::testing::gpu_available()) GTEST_SKIP() << "no CUDA device"

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

inline const Algorithm kAlgorithms[] = {Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive,
                                        Algorithm::MergePath, Algorithm::Auto};
inline const Mode kModes[] = {Mode::NoTranspose, Mode::Transpose, Mode::Conjugate,
                              Mode::ConjugateTranspose};

// (value, column index, row offset) for typed tests: every value type once, with 32- and 64-bit
// indices and offsets mixed, std::size_t offsets among them.
using ValueIndexOffsetTypes =
    ::testing::Types<std::tuple<double, std::int32_t, std::int32_t>,
                     std::tuple<float, std::int64_t, std::int64_t>,
                     std::tuple<std::complex<double>, std::int32_t, std::size_t>,
                     std::tuple<std::complex<float>, std::int64_t, std::int32_t>>;

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : size_(host.size()) {
    if (size_ == 0) return;
    check(cudaMalloc(reinterpret_cast<void**>(&data_), size_ * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(data_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  ~DeviceArray() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() const { return data_; }
  void upload(const std::vector<T>& host) const {
    if (host.size() != size_) throw std::invalid_argument("DeviceArray::upload: size differs");
    if (size_ > 0) {
      check(cudaMemcpy(data_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
    }
  }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    if (size_ > 0) {
      check(cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    }
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

class Stream {
 public:
  Stream() { check(cudaStreamCreate(&stream_), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

 private:
  cudaStream_t stream_ = nullptr;
};

// A GPU test with a fresh seed (traced into every failure of the test), a generator drawn from it
// and a stream, made only where there is a GPU (the test skips otherwise).
class SeededGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KSPMV_SKIP_WITHOUT_GPU();
    stream_.emplace();
  }
  Stream& stream() { return *stream_; }

  const std::uint64_t seed = kspmv::testing::fresh_seed();
  std::mt19937_64 rng{seed};

 private:
  ::testing::ScopedTrace seed_trace_{__FILE__, __LINE__, kspmv::testing::seed_message(seed)};
  std::optional<Stream> stream_;
};

template <class Scalar, class Ordinal, class Offset>
class DeviceCsr {
 public:
  explicit DeviceCsr(const HostCsr<Scalar, Ordinal, Offset>& host)
      : host_(host), row_map_(host.row_map), entries_(host.entries), values_(host.values) {}
  // New values in the same arrays (the structure stays).
  void upload_values(const std::vector<Scalar>& values) const { values_.upload(values); }
  // Another matrix of the same sizes in the same arrays.
  void upload(const HostCsr<Scalar, Ordinal, Offset>& other) {
    host_ = other;
    row_map_.upload(other.row_map);
    entries_.upload(other.entries);
    values_.upload(other.values);
  }

  CsrMatrix<Scalar, Ordinal, Offset> matrix() const {
    return {static_cast<Ordinal>(host_.num_rows),
            static_cast<Ordinal>(host_.num_cols),
            static_cast<Offset>(host_.num_entries()),
            row_map_.data(),
            entries_.data(),
            values_.data()};
  }

 private:
  HostCsr<Scalar, Ordinal, Offset> host_;
  DeviceArray<Offset> row_map_;
  DeviceArray<Ordinal> entries_;
  DeviceArray<Scalar> values_;
};

// Where a block's elements sit in its buffer: LayoutLeft or LayoutRight, rows or columns padded,
// and the first element `offset` elements into the buffer (offset 1 makes the pointer unaligned
// for any vector load wider than one element).
struct Layout {
  bool right = false;
  std::int64_t padding = 0;
  std::int64_t offset = 0;
};

inline const Layout kContiguous{};

// A block in a device buffer whose other elements hold poison, to catch writes outside the block.
template <class Scalar>
class DeviceBlock {
 public:
  DeviceBlock(const Block<Scalar>& host, Layout layout)
      : rows_(host.n),
        vectors_(host.k),
        row_stride_(layout.right ? host.k + layout.padding : 1),
        col_stride_(layout.right ? 1 : host.n + layout.padding),
        offset_(layout.offset),
        storage_(fill(host)) {}

  // New elements for the block, poison around them again.
  void upload(const Block<Scalar>& host) const { storage_.upload(fill(host)); }

  DenseBlock<Scalar> block() const {
    return {storage_.data() + offset_, rows_, vectors_, row_stride_, col_stride_};
  }
  DenseBlock<const Scalar> const_block() const {
    return {storage_.data() + offset_, rows_, vectors_, row_stride_, col_stride_};
  }

  // The block's elements; `outside_untouched` tells whether every other element is still poison.
  Block<Scalar> download(bool& outside_untouched) const {
    const auto buffer = storage_.download();
    Block<Scalar> out{rows_, vectors_,
                      std::vector<Scalar>(static_cast<std::size_t>(rows_ * vectors_))};
    std::vector<bool> inside(buffer.size(), false);
    for (std::int64_t j = 0; j < vectors_; ++j) {
      for (std::int64_t i = 0; i < rows_; ++i) {
        const auto at = static_cast<std::size_t>(index(i, j));
        out(i, j) = buffer[at];
        inside[at] = true;
      }
    }
    const Scalar poison = kspmv::testing::poison<Scalar>();
    outside_untouched = true;
    for (std::size_t p = 0; p < buffer.size(); ++p) {
      if (!inside[p] && std::memcmp(&buffer[p], &poison, sizeof(Scalar)) != 0)
        outside_untouched = false;
    }
    return out;
  }

 private:
  std::int64_t index(std::int64_t i, std::int64_t j) const {
    return offset_ + i * row_stride_ + j * col_stride_;
  }
  std::vector<Scalar> fill(const Block<Scalar>& host) const {
    const std::int64_t extent =
        rows_ == 0 || vectors_ == 0 ? 0 : index(rows_ - 1, vectors_ - 1) + 1;
    std::vector<Scalar> buffer(static_cast<std::size_t>(extent + 1),
                               kspmv::testing::poison<Scalar>());
    for (std::int64_t j = 0; j < vectors_; ++j) {
      for (std::int64_t i = 0; i < rows_; ++i)
        buffer[static_cast<std::size_t>(index(i, j))] = host(i, j);
    }
    return buffer;
  }

  std::int64_t rows_;
  std::int64_t vectors_;
  std::int64_t row_stride_;
  std::int64_t col_stride_;
  std::int64_t offset_;
  DeviceArray<Scalar> storage_;
};

// first(alpha, x, beta, y) and second(...) from the same random operands, y in `layout`: both y
// bitwise equal (`differs` says what a difference means), first's written only in y's elements and
// equal to the reference on `host` (whose values are those both calls multiply by).
template <class Scalar, class Ordinal, class Offset, class First, class Second>
void expect_same_results(const HostCsr<Scalar, Ordinal, Offset>& host, Mode mode,
                         std::int64_t vectors, Layout layout, const Stream& stream,
                         std::mt19937_64& rng, const std::string& differs, First&& first,
                         Second&& second) {
  const bool transposed = is_transposed(mode);
  const auto x = kspmv::testing::random_block<Scalar>(transposed ? host.num_rows : host.num_cols,
                                                      vectors, rng);
  const auto y = kspmv::testing::random_block<Scalar>(transposed ? host.num_cols : host.num_rows,
                                                      vectors, rng);
  const auto alpha = kspmv::testing::random_value<Scalar>(rng);
  const auto beta = kspmv::testing::random_value<Scalar>(rng);
  const DeviceBlock<Scalar> x_device(x, layout);
  const DeviceBlock<Scalar> first_y(y, layout);
  const DeviceBlock<Scalar> second_y(y, layout);
  first(alpha, x_device.const_block(), beta, first_y.block());
  second(alpha, x_device.const_block(), beta, second_y.block());
  stream.synchronize();
  check(cudaGetLastError(), "kernel");
  bool first_untouched = false;
  bool second_untouched = false;
  const auto got = first_y.download(first_untouched);
  const auto expected = second_y.download(second_untouched);
  EXPECT_TRUE(first_untouched) << "the call wrote outside y's elements";
  EXPECT_EQ(std::memcmp(got.data.data(), expected.data.data(), got.data.size() * sizeof(Scalar)), 0)
      << differs;
  EXPECT_EQ(reference::compare(
                reference::spmv(mode, alpha, kspmv::testing::arrays(host), x, beta, y), got),
            "");
}

// One call of y = beta*y + alpha*op(A)*x, made by `call(mode, alpha, A, x, beta, y, stream)`: x
// random, y random (NaN everywhere when beta == 0, which must not survive). Returns "" when the
// result matches the reference.
template <class Scalar, class Ordinal, class Offset, class Call>
std::string check_call(Call&& call, const DeviceCsr<Scalar, Ordinal, Offset>& A,
                       const HostCsr<Scalar, Ordinal, Offset>& host, Mode mode, Scalar alpha,
                       Scalar beta, std::int64_t vectors, Layout x_layout, Layout y_layout,
                       std::mt19937_64& rng) {
  const std::int64_t out_rows = is_transposed(mode) ? host.num_cols : host.num_rows;
  const std::int64_t in_rows = is_transposed(mode) ? host.num_rows : host.num_cols;
  const auto x = kspmv::testing::random_block<Scalar>(in_rows, vectors, rng);
  auto y = kspmv::testing::random_block<Scalar>(out_rows, vectors, rng);
  if (beta == Scalar(0)) std::fill(y.data.begin(), y.data.end(), kspmv::testing::poison<Scalar>());
  const auto expected = reference::spmv(mode, alpha, kspmv::testing::arrays(host), x, beta, y);

  const DeviceBlock<Scalar> x_device(x, x_layout);
  const DeviceBlock<Scalar> y_device(y, y_layout);
  Stream stream;
  call(mode, alpha, A.matrix(), x_device.const_block(), beta, y_device.block(), stream.get());
  stream.synchronize();
  check(cudaGetLastError(), "kernel");
  bool outside_untouched = false;
  const auto got = y_device.download(outside_untouched);
  if (!outside_untouched) return "the call wrote outside y's elements";
  return reference::compare(expected, got);
}

// check_call through `plan`.
template <class Scalar, class Ordinal, class Offset>
std::string check_apply(Plan<Scalar, Ordinal, Offset>& plan,
                        const DeviceCsr<Scalar, Ordinal, Offset>& A,
                        const HostCsr<Scalar, Ordinal, Offset>& host, Mode mode, Scalar alpha,
                        Scalar beta, std::int64_t vectors, Layout x_layout, Layout y_layout,
                        std::mt19937_64& rng) {
  const auto through_plan = [&plan](auto&&... args) { plan.apply(args...); };
  return check_call(through_plan, A, host, mode, alpha, beta, vectors, x_layout, y_layout, rng);
}

using cuda_graph::CapturedGraph;

// Captures what `enqueue` puts on `stream`, replays it once and waits.
template <class Enqueue>
void capture_and_replay(cudaStream_t stream, Enqueue&& enqueue) {
  CapturedGraph(stream, enqueue).launch();
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

// check_call through apply_without_plan, twice: captured in a graph on a stream no call has seen
// (no cached plan yet: RowBlocks), then directly (the cached plan).
template <class Scalar, class Ordinal, class Offset>
std::string check_without_plan(const HostCsr<Scalar, Ordinal, Offset>& host, Mode mode,
                               Scalar alpha, Scalar beta, std::mt19937_64& rng,
                               std::int64_t vectors = 1, Layout x_layout = kContiguous,
                               Layout y_layout = kContiguous) {
  const DeviceCsr<Scalar, Ordinal, Offset> A(host);
  const auto captured = [](auto&&... args) {
    const cudaStream_t stream = std::get<sizeof...(args) - 1>(std::tie(args...));
    capture_and_replay(stream, [&] { apply_without_plan(args...); });
  };
  const auto direct = [](auto&&... args) { apply_without_plan(args...); };
  const bool capturable = !is_transposed(mode);  // T and H make a plan for the call
  if (capturable) {
    const std::string error =
        check_call(captured, A, host, mode, alpha, beta, vectors, x_layout, y_layout, rng);
    if (!error.empty()) return "captured without a cached plan: " + error;
  }
  return check_call(direct, A, host, mode, alpha, beta, vectors, x_layout, y_layout, rng);
}

// A fresh plan for `algorithm`, then check_apply.
template <class Scalar, class Ordinal, class Offset>
std::string check_spmv(const HostCsr<Scalar, Ordinal, Offset>& host, Algorithm algorithm, Mode mode,
                       Scalar alpha, Scalar beta, std::mt19937_64& rng, std::int64_t vectors = 1,
                       Layout x_layout = kContiguous, Layout y_layout = kContiguous) {
  const DeviceCsr<Scalar, Ordinal, Offset> A(host);
  Stream stream;
  Plan<Scalar, Ordinal, Offset> plan(A.matrix(), algorithm, stream.get());
  return check_apply(plan, A, host, mode, alpha, beta, vectors, x_layout, y_layout, rng);
}

}  // namespace kspmv::cuda::testing
