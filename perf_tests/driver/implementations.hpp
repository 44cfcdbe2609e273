#pragma once
// Everything the suite times of one operation on one matrix: kspmv's calls, then the baselines
// (Kokkos Kernels' own spmv everywhere, cuSPARSE when Kokkos has CUDA), with their own handles.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kspmv/spmv.hpp>

#include "kokkos_kernels_baseline.hpp"
#include "kspmv/bench/driver.hpp"
#include "kspmv/matrices/host_csr.hpp"
#include "operands.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "cusparse_baselines.hpp"
#endif

namespace kspmv::bench {

// Through a reused Handle: every algorithm the backend offers for the space (Auto alone for several
// vectors), and for transposed operations Auto with the values declared constant and Auto with
// determinism off; without one: the call a user ports from KokkosSparse::spmv, which always asks
// for Auto.
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void add_kspmv_algorithms(const ExecSpace& exec,
                          const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops,
                          const Operation& operation, std::vector<Implementation>& out) {
  const auto A = kspmv::make_crs_view(static_cast<Ordinal>(ops.num_cols), ops.row_map, ops.entries,
                                      ops.values);
  const char* mode = kspmv::to_string(operation.mode);
  const auto beta = static_cast<Scalar>(operation.beta);
  with_vectors(ops, operation, [&](const auto& x, const auto& y) {
    if (!operation.handle) {
      Implementation impl;
      impl.backend = "kspmv";
      impl.algorithm = kspmv::to_string(kspmv::Algorithm::Auto);
      impl.call = [=] { kspmv::spmv(exec, mode, Scalar(1), A, x, beta, y); };
      impl.chosen_algorithm = [label = impl.algorithm] { return label; };
      out.push_back(std::move(impl));
      return;
    }
    using HandleType = kspmv::Handle<std::decay_t<decltype(A)>, ExecSpace>;
    // Handle::matrix_bytes_per_call() counts what a one-vector call in mode N or C reads.
    const bool reads_matrix_as_planned =
        operation.vectors == 1 &&
        (operation.mode == kspmv::Mode::NoTranspose || operation.mode == kspmv::Mode::Conjugate);
    const auto add = [&](std::shared_ptr<HandleType> handle, std::string algorithm) {
      Implementation impl;
      impl.backend = "kspmv";
      impl.algorithm = std::move(algorithm);
      impl.call = [=] { kspmv::spmv(exec, handle.get(), mode, Scalar(1), A, x, beta, y); };
      impl.setup_seconds = [handle] { return handle->setup_seconds(); };
      impl.chosen_algorithm = [handle] { return kspmv::to_string(handle->algorithm()); };
      impl.plan = [handle] { return handle->describe(); };
      if (reads_matrix_as_planned) {
        impl.matrix_bytes = [handle] {
          const auto bytes = handle->matrix_bytes_per_call();
          return bytes ? static_cast<double>(*bytes) : NAN;
        };
      }
      out.push_back(std::move(impl));
    };
    if (operation.vectors > 1) {
      add(std::make_shared<HandleType>(), kspmv::to_string(kspmv::Algorithm::Auto));
      return;
    }
    for (kspmv::Algorithm algorithm : HandleType::backend_type::algorithms) {
      add(std::make_shared<HandleType>(algorithm), kspmv::to_string(algorithm));
    }
    if (operation.transposed()) {
      // Auto with the values declared constant: the backend may keep a transposed copy.
      auto handle = std::make_shared<HandleType>();
      handle->set_values_constant(true);
      add(handle, kspmv::to_string(kspmv::Algorithm::Auto) + std::string("_constant_values"));
      // Auto with determinism off: atomic adds into y where they serve (DR-30); the equivalence
      // check leaves these records out, since y's last bits vary between runs.
      auto atomic = std::make_shared<HandleType>();
      atomic->set_deterministic(false);
      add(atomic, kspmv::to_string(kspmv::Algorithm::Auto) + std::string("_atomic"));
    }
  });
}

// `host` (a HostCsr of the harness's scalar) must outlive the implementations (the cuSPARSE
// harness copies it on its first call).
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Host>
std::vector<Implementation> make_implementations(
    const ExecSpace& exec, const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops,
    const Host& host, const Operation& operation) {
  std::vector<Implementation> implementations;
  add_kspmv_algorithms(exec, ops, operation, implementations);
  add_kokkos_kernels_baselines(exec, ops, operation, implementations);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    add_cusparse_baselines(exec, ops, host, operation, implementations);
  }
#else
  (void)host;
#endif
  return implementations;
}

// The labels make_implementations() gives, from a 0 x 0 matrix (nothing is run).
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
std::vector<std::string> implementation_labels(const ExecSpace& exec, const Operation& operation) {
  DeviceOperands<ExecSpace, Scalar, Ordinal, Offset> empty;
  empty.row_map = decltype(empty.row_map)("kspmv_perf::empty_row_map", 1);
  const matrices::HostCsr<Scalar, Ordinal, Offset> no_matrix;
  std::vector<std::string> labels;
  for (const auto& impl : make_implementations(exec, empty, no_matrix, operation)) {
    labels.push_back(impl.label());
  }
  return labels;
}

}  // namespace kspmv::bench
