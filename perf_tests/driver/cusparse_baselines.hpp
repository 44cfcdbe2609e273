#pragma once
// cuSPARSE CSR ALG1 and ALG2 as baselines on Kokkos::Cuda, through the CUDA benchmark's harness
// (perf_tests/cuda/cusparse_spmv.hpp). The harness owns a device copy of the matrix; x and y are
// the suite's Views, and the work goes to the instance's stream. Set up on the first call, like a
// kspmv handle, so that the setup time is measured the same way.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "cusparse_spmv.hpp"
#include "device_csr.hpp"
#include "kspmv/bench/driver.hpp"
#include "kspmv/matrices/host_csr.hpp"
#include "operands.hpp"

namespace kspmv::bench {

template <class Scalar, class Ordinal, class Offset>
void add_cusparse_baselines(const Kokkos::Cuda& exec,
                            const DeviceOperands<Kokkos::Cuda, Scalar, Ordinal, Offset>& ops,
                            const matrices::HostCsr<Scalar, Ordinal, Offset>& host,
                            const Operation& operation, std::vector<Implementation>& out) {
  static_assert(std::is_same_v<Ordinal, std::int32_t> && std::is_same_v<Offset, std::int32_t>,
                "the cuSPARSE harness takes 32-bit indices");
  const auto cusparse_operation =
      operation.transposed() ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto beta = static_cast<Scalar>(operation.beta);
  struct State {
    std::unique_ptr<DeviceCsr<Scalar, Ordinal, Offset>> matrix;
    std::unique_ptr<CusparseSpmv<Scalar>> spmv;
  };
  for (const auto& [name, algorithm] :
       {std::pair{"ALG1", CUSPARSE_SPMV_CSR_ALG1}, std::pair{"ALG2", CUSPARSE_SPMV_CSR_ALG2}}) {
    auto state = std::make_shared<State>();
    Implementation impl;
    impl.backend = "cuSPARSE";
    impl.algorithm = name;
    impl.call = [state, &host, ops, exec, algorithm = algorithm, cusparse_operation, beta] {
      if (!state->spmv) {
        state->matrix = std::make_unique<DeviceCsr<Scalar, Ordinal, Offset>>(host);
        state->spmv = std::make_unique<CusparseSpmv<Scalar>>(
            *state->matrix, ops.x.data(), ops.y.data(), algorithm, cusparse_operation, beta,
            exec.cuda_stream());
      }
      state->spmv->apply();
    };
    impl.setup_seconds = [state] { return state->spmv->setup_seconds(); };
    impl.chosen_algorithm = [label = impl.algorithm] { return label; };
    out.push_back(std::move(impl));
  }
}

}  // namespace kspmv::bench
