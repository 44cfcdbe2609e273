#pragma once
// Kokkos Kernels' own spmv, called directly (not through kspmv), as a baseline. Kokkos Kernels
// >= 4.3 can be told to use its native kernels, which matters on CUDA where its default may hand
// the work to cuSPARSE (a baseline of its own); older versions have only the default.

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <kspmv/kokkoskernels/compat.hpp>

#include "kspmv/bench/driver.hpp"
#include "operands.hpp"

namespace kspmv::bench {

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
auto kokkos_kernels_matrix(const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops) {
  using Device = typename DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>::device_type;
  using Matrix = KokkosSparse::CrsMatrix<Scalar, Ordinal, Device, void, Offset>;
  const auto rows = ops.row_map.extent(0) == 0 ? 0 : ops.row_map.extent(0) - 1;
  return Matrix("kspmv_perf::A", static_cast<Ordinal>(rows), static_cast<Ordinal>(ops.num_cols),
                static_cast<typename Matrix::size_type>(ops.values.extent(0)), ops.values,
                ops.row_map, ops.entries);
}

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void add_kokkos_kernels_baselines(const ExecSpace& exec,
                                  const DeviceOperands<ExecSpace, Scalar, Ordinal, Offset>& ops,
                                  const Operation& operation, std::vector<Implementation>& out) {
  const auto A = kokkos_kernels_matrix(ops);
  const char* mode = kspmv::to_string(operation.mode);
  const auto beta = static_cast<Scalar>(operation.beta);
  with_vectors(ops, operation, [&](const auto& x, const auto& y) {
#if KSPMV_KOKKOSKERNELS_VERSION >= 40300
    using Handle = KokkosSparse::SPMVHandle<ExecSpace, std::decay_t<decltype(A)>,
                                            std::decay_t<decltype(x)>, std::decay_t<decltype(y)>>;
    for (const auto& [name, algorithm] :
         {std::pair{"native", KokkosSparse::SPMV_NATIVE},
          std::pair{"native_merge_path", KokkosSparse::SPMV_NATIVE_MERGE_PATH}}) {
      auto handle = std::make_shared<Handle>(algorithm);
      Implementation impl;
      impl.backend = "KokkosKernels";
      impl.algorithm = name;
      impl.call = [=] { KokkosSparse::spmv(exec, handle.get(), mode, Scalar(1), A, x, beta, y); };
      impl.chosen_algorithm = [label = impl.algorithm] { return label; };
      out.push_back(std::move(impl));
    }
#else
    auto cache = std::make_shared<kokkoskernels::compat::HandleCache>();
    Implementation impl;
    impl.backend = "KokkosKernels";
    impl.algorithm = "default";
    impl.call = [=] { kokkoskernels::compat::spmv(exec, *cache, mode, Scalar(1), A, x, beta, y); };
    impl.chosen_algorithm = [] { return std::string("default"); };
    out.push_back(std::move(impl));
#endif
  });
}

}  // namespace kspmv::bench
