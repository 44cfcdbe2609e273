#pragma once
// The CUDA backend seen from Kokkos: Kokkos::Cuda calls land here (src/kspmv/detail/dispatch.hpp).
// A thin adapter: Views become the raw-pointer operands, the handle keeps the Plan, and the work is
// enqueued on the instance's stream. Algorithm::KokkosKernels is passed on to Kokkos Kernels, so a
// CUDA build can still measure it as a baseline.

#include <cuda_runtime_api.h>
#include <Kokkos_Core.hpp>

#include <complex>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>

#include "kspmv/algorithm.hpp"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/stream_capture.hpp"
#include "kspmv/cuda/without_plan.hpp"
#include "kspmv/detail/remembered_structures.hpp"
#include "kspmv/detail/std_scalar.hpp"
#include "kspmv/detail/structure_check.hpp"
#include "kspmv/errors.hpp"
#include "kspmv/kokkoskernels/backend.hpp"
#include "kspmv/mode.hpp"

namespace kspmv::cuda {

namespace detail {

template <class T>
using raw_scalar_t = kspmv::detail::std_scalar_t<T>;

template <class T>
raw_scalar_t<T> to_raw(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return v;
  } else {
    return raw_scalar_t<T>(v.real(), v.imag());
  }
}

// A rank-1 or rank-2 View of any layout as a strided block.
template <class View>
auto as_dense_block(const View& v) {
  using Raw = std::conditional_t<std::is_const_v<typename View::value_type>,
                                 const raw_scalar_t<typename View::non_const_value_type>,
                                 raw_scalar_t<typename View::non_const_value_type>>;
  DenseBlock<Raw> block;
  block.data = reinterpret_cast<Raw*>(v.data());
  block.num_rows = static_cast<std::int64_t>(v.extent(0));
  block.row_stride = static_cast<std::int64_t>(v.stride(0));
  if constexpr (View::rank == 2) {
    block.num_vectors = static_cast<std::int64_t>(v.extent(1));
    block.col_stride = static_cast<std::int64_t>(v.stride(1));
  }
  return block;
}

template <class CrsViewT>
auto raw_matrix(const CrsViewT& A) {
  using RawScalar = raw_scalar_t<typename CrsViewT::scalar_type>;
  CsrMatrix<RawScalar, typename CrsViewT::ordinal_type, typename CrsViewT::offset_type> matrix;
  matrix.num_rows = A.num_rows();
  matrix.num_cols = A.num_cols();
  matrix.num_entries = static_cast<typename CrsViewT::offset_type>(A.num_entries());
  matrix.row_map = A.row_map().data();
  matrix.entries = A.entries().data();
  matrix.values = reinterpret_cast<const RawScalar*>(A.values().data());
  return matrix;
}

}  // namespace detail

struct KokkosBackend {
  static constexpr const char* name = "CUDA";
  static constexpr Algorithm algorithms[] = {Algorithm::Auto,      Algorithm::Scalar,
                                             Algorithm::Vector,    Algorithm::Adaptive,
                                             Algorithm::MergePath, Algorithm::KokkosKernels};

  // Scalar: x's and y's type; A's values may be its single precision counterpart.
  template <class CrsViewT, class Scalar>
  class State {
   public:
    using RawPlan =
        Plan<detail::raw_scalar_t<Scalar>, typename CrsViewT::ordinal_type,
             typename CrsViewT::offset_type, detail::raw_scalar_t<typename CrsViewT::scalar_type>>;

    Algorithm algorithm() const { return plan_ ? plan_->algorithm() : Algorithm::KokkosKernels; }
    double setup_seconds() const {
      return plan_ ? plan_->setup_seconds() : kokkoskernels_.setup_seconds();
    }
    bool is_set_up() const { return plan_ != nullptr || kokkoskernels_.is_set_up(); }
    std::string describe() const { return plan_ ? plan_->describe() : kokkoskernels_.describe(); }
    std::size_t workspace_bytes() const {
      return plan_ ? plan_->workspace_bytes() : kokkoskernels_.workspace_bytes();
    }
    std::optional<std::size_t> matrix_bytes_per_call() const {
      return plan_ ? std::optional<std::size_t>(plan_->matrix_bytes_per_call())
                   : kokkoskernels_.matrix_bytes_per_call();
    }
    void set_values_constant(bool constant) {
      values_constant_ = constant;
      if (plan_) plan_->set_values_constant(constant);
    }
    void values_changed() {
      if (plan_) plan_->values_changed();
    }
    // Taken by the plan the first call makes.
    void set_compression(Compression compression) { options_.compression = compression; }
    void set_workspace_limit(std::size_t bytes) { options_.workspace_limit = bytes; }
    void set_structure_check(bool check) {
      options_.check_structure = check;
      kokkoskernels_.set_structure_check(check);
    }
    bool checks_structure() const { return options_.check_structure; }
    void set_deterministic(bool deterministic) { options_.deterministic = deterministic; }
    void set_transposed_form(TransposedForm form) { options_.transposed_form = form; }

   private:
    friend struct KokkosBackend;
    bool values_constant_ = false;
    PlanOptions options_;
    std::unique_ptr<RawPlan> plan_;
    kokkoskernels::Backend::State<CrsViewT, Scalar> kokkoskernels_;
  };

  template <class ExecSpace, class CrsViewT, class Scalar, class XView, class YView>
  static void apply(const ExecSpace& exec, State<CrsViewT, Scalar>& state, Algorithm requested,
                    Mode mode, Scalar alpha, const CrsViewT& A, const XView& x, Scalar beta,
                    const YView& y) {
    static_assert(std::is_same_v<ExecSpace, Kokkos::Cuda>);
    if (requested == Algorithm::KokkosKernels) {
      kokkoskernels::Backend::apply(exec, state.kokkoskernels_, requested, mode, alpha, A, x, beta,
                                    y);
      return;
    }
    using RawPlan = typename State<CrsViewT, Scalar>::RawPlan;
    const auto matrix = detail::raw_matrix(A);
    if (!state.plan_) {
      state.plan_ =
          std::make_unique<RawPlan>(matrix, requested, exec.cuda_stream(), state.options_);
      state.plan_->set_values_constant(state.values_constant_);
    }
    state.plan_->apply(mode, detail::to_raw(alpha), matrix,
                       detail::as_dense_block(typename XView::const_type(x)), detail::to_raw(beta),
                       detail::as_dense_block(y), exec.cuda_stream());
  }

  // Modes N and C: a plan cached by the library for A's arrays and sizes, made by the first such
  // call and freed at Kokkos::finalize; T and H make a plan for the call
  // (kspmv/cuda/without_plan.hpp). A structure no call without a handle checked before is checked
  // here and remembered with a hold on its arrays (kspmv/detail/remembered_structures.hpp), so that
  // a plan cached for a freed matrix never serves an unchecked one at the same addresses; a call
  // captured into a graph cannot wait for a check and takes the plan it finds.
  template <class ExecSpace, class CrsViewT, class Scalar, class XView, class YView>
  static void apply_without_handle(const ExecSpace& exec, Mode mode, Scalar alpha,
                                   const CrsViewT& A, const XView& x, Scalar beta, const YView& y) {
    static_assert(std::is_same_v<ExecSpace, Kokkos::Cuda>);
    static std::once_flag release_at_finalize;
    std::call_once(release_at_finalize, [] { Kokkos::push_finalize_hook(release_cached_plans); });
    // Only a check made by this call spares the raw plan's: a remembered unmanaged View is held by
    // nobody, and a raw plan made again for it (its cache dropped the first) checks again.
    WithoutPlanOptions options;
    if (!kspmv::detail::checked_before(A) && !is_capturing(exec.cuda_stream())) {
      kspmv::detail::check_structure("kspmv::spmv", exec, A);
      kspmv::detail::remember_checked(A);
      options.structure_checked = true;
    }
    cuda::apply_without_plan(mode, detail::to_raw(alpha), detail::raw_matrix(A),
                             detail::as_dense_block(typename XView::const_type(x)),
                             detail::to_raw(beta), detail::as_dense_block(y), exec.cuda_stream(),
                             options);
  }
};

}  // namespace kspmv::cuda
