#pragma once
// The interface every backend implements (a struct per execution space family):
//
//   struct SomeBackend {
//     static constexpr const char* name;                 // for messages: "Kokkos Kernels", "CUDA"
//     static constexpr Algorithm algorithms[];            // what Handle may request; Auto first
//
//     template <class CrsView, class Scalar> class State {  // lives in a Handle, for x and y of
//                                                          // type Scalar; default-constructible
//      public:
//       Algorithm algorithm() const;                       // chosen at setup
//       double setup_seconds() const;
//       bool is_set_up() const;
//       std::string describe() const;                      // what runs and why, one line
//       std::size_t workspace_bytes() const;               // device memory held
//       std::optional<std::size_t> matrix_bytes_per_call() const;  // A's bytes a one-vector call
//                                                          // in mode N or C reads, in the form the
//                                                          // backend keeps; empty: A's own arrays
//       void set_values_constant(bool);                    // see Handle; may keep derived copies
//       void values_changed();
//       void set_compression(Compression);                 // see Handle; called before set-up;
//       void set_workspace_limit(std::size_t);             // a backend that keeps no compressed
//                                                          // columns or copy of x ignores both
//       void set_structure_check(bool);                    // see Handle; whether set-up checks
//                                                          // the CSR invariants (default true)
//       bool checks_structure() const;                     // what set_structure_check set
//       void set_deterministic(bool);                      // see Handle; called before set-up
//       void set_transposed_form(TransposedForm);          // see Handle; called before set-up
//     };
//
//     // y = beta*y + alpha*op(A)*x. Called by kspmv::spmv after the shapes were checked and the
//     // trivial cases (empty y, alpha == 0, empty A) were handled, so A, x and y are non-empty.
//     // Sets the state up on first use, checking A's structure (kspmv/detail/csr_invariants.hpp)
//     // before anything reads it unless the check is off; x and y are rank-1 or rank-2 Views of
//     // any layout.
//     // Scalar is x's and y's; A's values are Scalar or its single precision counterpart.
//     template <class ExecSpace, class CrsView, class Scalar, class XView, class YView>
//     static void apply(const ExecSpace&, State<CrsView, Scalar>&, Algorithm requested, Mode,
//                       Scalar alpha, const CrsView& A, const XView& x, Scalar beta,
//                       const YView& y);
//
//     // The same without a handle: whatever the backend keeps for later calls is its own. Checks
//     // A's CSR invariants on the first call for its arrays and sizes at least.
//     template <class ExecSpace, class CrsView, class Scalar, class XView, class YView>
//     static void apply_without_handle(const ExecSpace&, Mode, Scalar alpha, const CrsView& A,
//                                      const XView& x, Scalar beta, const YView& y);
//   };
//
// src/kspmv/detail/dispatch.hpp maps each execution space to one backend at compile time.

#include <algorithm>
#include <iterator>
#include <string>

#include "kspmv/algorithm.hpp"

namespace kspmv::detail {

template <class Backend>
bool backend_supports(Algorithm algorithm) {
  return std::find(std::begin(Backend::algorithms), std::end(Backend::algorithms), algorithm) !=
         std::end(Backend::algorithms);
}

template <class Backend>
std::string backend_algorithm_list() {
  std::string list;
  for (Algorithm a : Backend::algorithms) list += (list.empty() ? "" : ", ") + kspmv::to_string(a);
  return list;
}

}  // namespace kspmv::detail
