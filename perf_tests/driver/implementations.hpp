#pragma once
// Everything the suite times on one matrix: each algorithm kspmv's backend offers for the execution
// space, and the baselines (Kokkos Kernels' own spmv everywhere, cuSPARSE when Kokkos has CUDA).

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <kspmv/kokkoskernels/compat.hpp>
#include <kspmv/spmv.hpp>

namespace kspmv::perf {

// The matrix and vectors on the execution space's memory.
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
struct DeviceOperands {
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  std::int64_t num_cols = 0;
  Kokkos::View<Offset*, device_type> row_map;
  Kokkos::View<Ordinal*, device_type> entries;
  Kokkos::View<Scalar*, device_type> values;
  Kokkos::View<Scalar*, device_type> x;
  Kokkos::View<Scalar*, device_type> y;
};

struct Implementation {
  std::string backend;
  std::string algorithm;
  std::function<void()> call;  // y = alpha*A*x + beta*y on the instance, asynchronous
  std::function<double()> setup_seconds = [] { return NAN; };  // valid after the first call
  std::function<std::string()> chosen_algorithm;               // valid after the first call

  std::string label() const { return backend + "/" + algorithm; }
};

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void add_kspmv_algorithms(const ExecSpace& exec,
                          const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops,
                          Scalar alpha, Scalar beta, std::vector<Implementation>& out) {
  const auto A = kspmv::make_crs_view(static_cast<Ordinal>(ops.num_cols), ops.row_map, ops.entries,
                                      ops.values);
  using HandleType = kspmv::Handle<std::decay_t<decltype(A)>, ExecSpace>;
  for (kspmv::Algorithm algorithm : HandleType::backend_type::algorithms) {
    auto handle = std::make_shared<HandleType>(algorithm);
    Implementation impl;
    impl.backend = "kspmv";
    impl.algorithm = kspmv::to_string(algorithm);
    impl.call = [=] { kspmv::spmv(exec, handle.get(), "N", alpha, A, ops.x, beta, ops.y); };
    impl.setup_seconds = [handle] { return handle->setup_seconds(); };
    impl.chosen_algorithm = [handle] { return kspmv::to_string(handle->algorithm()); };
    out.push_back(std::move(impl));
  }
}

// Kokkos Kernels called directly (not through kspmv), with its default algorithm.
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void add_kokkos_kernels_baseline(const ExecSpace& exec,
                                 const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops,
                                 Scalar alpha, Scalar beta, std::vector<Implementation>& out) {
  using Device = typename DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>::device_type;
  using Matrix = KokkosSparse::CrsMatrix<Scalar, Ordinal, Device, void, Offset>;
  const auto rows =
      static_cast<Ordinal>(ops.row_map.extent(0) == 0 ? 0 : ops.row_map.extent(0) - 1);
  const Matrix A("kspmv_perf::A", rows, static_cast<Ordinal>(ops.num_cols),
                 static_cast<typename Matrix::size_type>(ops.values.extent(0)), ops.values,
                 ops.row_map, ops.entries);
  auto cache = std::make_shared<kokkoskernels::compat::HandleCache>();
  Implementation impl;
  impl.backend = "KokkosKernels";
  impl.algorithm = "default";
  impl.call = [=] { kokkoskernels::compat::spmv(exec, *cache, "N", alpha, A, ops.x, beta, ops.y); };
  impl.chosen_algorithm = [] { return std::string("default"); };
  out.push_back(std::move(impl));
}

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
std::vector<Implementation> make_implementations(
    const ExecSpace& exec, const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops,
    Scalar alpha, Scalar beta) {
  std::vector<Implementation> implementations;
  add_kspmv_algorithms(exec, ops, alpha, beta, implementations);
  add_kokkos_kernels_baseline(exec, ops, alpha, beta, implementations);
  return implementations;
}

// The labels make_implementations() gives, from a 0 x 0 matrix (nothing is run).
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
std::vector<std::string> implementation_labels(const ExecSpace& exec) {
  DeviceOperands<ExecSpace, Scalar, Ordinal, Offset> empty;
  empty.row_map = decltype(empty.row_map)("kspmv_perf::empty_row_map", 1);
  std::vector<std::string> labels;
  for (const auto& impl : make_implementations(exec, empty, Scalar(1), Scalar(0))) {
    labels.push_back(impl.label());
  }
  return labels;
}

}  // namespace kspmv::perf
