#pragma once
// cuSPARSE's CSR SpMV (ALG1, ALG2) or, for several vectors, SpMM (ALG1-ALG3) as baselines on
// Kokkos::Cuda, through the CUDA benchmark's wrapper (perf_tests/cuda/cusparse_product.hpp). The
// harness owns a device copy of the matrix; x and y are the suite's Views, and the work goes to the
// instance's stream. Set up on the first call, like a kspmv handle, so that the setup time is
// measured the same way.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cusparse_product.hpp"
#include "device_csr.hpp"
#include "kspmv/bench/driver.hpp"
#include "kspmv/matrices/host_csr.hpp"
#include "operands.hpp"

namespace kspmv::bench {

template <class KokkosScalar, class Ordinal, class Offset, class Scalar>
void add_cusparse_baselines(const Kokkos::Cuda& exec,
                            const DeviceOperands<Kokkos::Cuda, KokkosScalar, Ordinal, Offset>& ops,
                            const matrices::HostCsr<Scalar, Ordinal, Offset>& host,
                            const Operation& operation, std::vector<Implementation>& out) {
  static_assert(std::is_same_v<Ordinal, std::int32_t> && std::is_same_v<Offset, std::int32_t>,
                "the cuSPARSE harness takes 32-bit indices");
  const auto cusparse_op = cusparse_operation(operation.mode);
  const auto beta = static_cast<Scalar>(operation.beta);
  struct State {
    std::unique_ptr<DeviceCsr<Scalar, Ordinal, Offset>> matrix;
    std::unique_ptr<CusparseProduct<Scalar>> product;
  };
  with_vectors(ops, operation, [&](const auto& x, const auto& y) {
    const DenseShape dense{operation.vectors, operation.layout_right};
    for (const std::string& name : cusparse_algorithm_names(operation.vectors)) {
      auto state = std::make_shared<State>();
      Implementation impl;
      impl.backend = "cuSPARSE";
      impl.algorithm = name;
      impl.call = [state, &host, x, y, exec, dense, name, cusparse_op, beta] {
        if (!state->product) {
          state->matrix = std::make_unique<DeviceCsr<Scalar, Ordinal, Offset>>(host);
          state->product = std::make_unique<CusparseProduct<Scalar>>(
              *state->matrix, reinterpret_cast<const Scalar*>(x.data()),
              reinterpret_cast<Scalar*>(y.data()), dense, name, cusparse_op, beta,
              exec.cuda_stream());
        }
        state->product->apply();
      };
      impl.setup_seconds = [state] { return state->product->setup_seconds(); };
      impl.chosen_algorithm = [label = impl.algorithm] { return label; };
      out.push_back(std::move(impl));
    }
  });
}

}  // namespace kspmv::bench
