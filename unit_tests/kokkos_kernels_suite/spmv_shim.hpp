#pragma once
// What Kokkos Kernels' SpMV tests call instead of KokkosSparse::spmv (extract_tests.cmake rewrites
// their calls). Each Kokkos Kernels form is answered by the same form of kspmv::spmv where kspmv
// takes the operands (a CrsMatrix, x and y of one rank and scalar type), and by the real Kokkos
// Kernels function, unchanged, where it does not (a BsrMatrix; spmv_struct). Every call is
// counted by form and by who answered it (call_counts.hpp).

#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "call_counts.hpp"
#include "kspmv/spmv.hpp"

namespace kspmv_kokkos_kernels_suite {

template <class AMatrix, class XVector, class YVector>
constexpr bool kspmv_takes() {
  if constexpr (KokkosSparse::is_crs_matrix_v<AMatrix>) {
    using Scalar = typename YVector::non_const_value_type;
    constexpr int rank = static_cast<int>(XVector::rank);
    return rank == static_cast<int>(YVector::rank) && (rank == 1 || rank == 2) &&
           std::is_same_v<typename XVector::non_const_value_type, Scalar> &&
           kspmv::is_matrix_scalar_for_v<typename AMatrix::non_const_value_type, Scalar>;
  } else {
    return false;
  }
}

template <class AMatrix>
const char* why_not_kspmv() {
  if constexpr (KokkosSparse::Experimental::is_bsr_matrix_v<AMatrix>) {
    return "a BsrMatrix (kspmv multiplies CSR matrices)";
  } else {
    return "operand types kspmv does not take";
  }
}

template <class AMatrix, class XVector>
std::string call_name(const char* form) {
  const char* matrix = KokkosSparse::is_crs_matrix_v<AMatrix>                 ? "CrsMatrix"
                       : KokkosSparse::Experimental::is_bsr_matrix_v<AMatrix> ? "BsrMatrix"
                                                                              : "other matrix";
  return std::string(form) + ", " + matrix + ", rank " +
         std::to_string(static_cast<int>(XVector::rank));
}

// by_kspmv(A) where kspmv takes the operands, else by_kokkos_kernels(A); each is called with the
// matrix so that its body depends on a template parameter and is compiled only where called.
template <class AMatrix, class XVector, class YVector, class ByKspmv, class ByKokkosKernels>
void answer(const char* form, const AMatrix& A, ByKspmv&& by_kspmv,
            ByKokkosKernels&& by_kokkos_kernels) {
  if constexpr (kspmv_takes<AMatrix, XVector, YVector>()) {
    by_kspmv(A);
    count_call(call_name<AMatrix, XVector>(form), AnsweredBy::Kspmv);
  } else {
    by_kokkos_kernels(A);
    count_call(call_name<AMatrix, XVector>(form), AnsweredBy::KokkosKernels,
               why_not_kspmv<AMatrix>());
  }
}

// The kspmv algorithm for a Kokkos Kernels handle's request on a CrsMatrix.
template <class Backend>
kspmv::Algorithm kspmv_algorithm_for(KokkosSparse::SPMVAlgorithm requested) {
  switch (requested) {
    case KokkosSparse::SPMV_DEFAULT:
    case KokkosSparse::SPMV_FAST_SETUP:
    case KokkosSparse::SPMV_NATIVE:  // a library's own kernel, not a vendor's: kspmv's are
      return kspmv::Algorithm::Auto;
    // Kernels for imbalanced rows: kspmv's MergePath where the backend has it (Kokkos::Cuda);
    // elsewhere the backend's one kernel.
    case KokkosSparse::SPMV_MERGE_PATH:
    case KokkosSparse::SPMV_NATIVE_MERGE_PATH:
      return kspmv::detail::backend_supports<Backend>(kspmv::Algorithm::MergePath)
                 ? kspmv::Algorithm::MergePath
                 : kspmv::Algorithm::Auto;
    case KokkosSparse::SPMV_BSR_V41:
    case KokkosSparse::SPMV_BSR_V42:
    case KokkosSparse::SPMV_BSR_TC:
      break;
  }
  throw std::logic_error("a CrsMatrix's SPMVHandle with algorithm " +
                         std::string(KokkosSparse::get_spmv_algorithm_name(requested)) +
                         ", which its constructor refuses");
}

// A Kokkos Kernels handle belongs to one matrix, a kspmv handle to one structure: the kspmv handle
// standing in for a Kokkos Kernels handle is found by the matrix's row map and column index
// arrays (addresses and lengths, as plans are structure-specific), its column count and the
// algorithm, whichever Kokkos Kernels handle the test passes. Each entry keeps the matrix's
// graph, so no other matrix can get those addresses while the entry lives; once the entry holds
// the last reference to either array, no matrix can pass it again, and the entry goes.
template <class AMatrix, class KspmvHandle>
class HandleCache {
 public:
  static HandleCache& instance() {
    static HandleCache cache;
    // Its handles must go before Kokkos does.
    static const bool cleared_at_finalize = [] {
      Kokkos::push_finalize_hook([] { cache.entries_.clear(); });
      return true;
    }();
    (void)cleared_at_finalize;
    return cache;
  }

  template <class F>
  void with_handle(const AMatrix& A, kspmv::Algorithm algorithm, F&& f) {
    const auto& graph = A.graph;
    // Arrays without a reference count (unmanaged Views) could be freed and their addresses
    // reused by another structure unnoticed: such a matrix gets a handle of its own per call.
    if (graph.row_map.use_count() == 0 || graph.entries.use_count() == 0) {
      KspmvHandle handle(algorithm);
      f(handle);
      return;
    }
    for (auto entry = entries_.begin(); entry != entries_.end();) {
      const bool orphaned = entry->second.graph.row_map.use_count() == 1 ||
                            entry->second.graph.entries.use_count() == 1;
      entry = orphaned ? entries_.erase(entry) : std::next(entry);
    }
    const Key key{graph.row_map.data(),
                  graph.row_map.extent(0),
                  graph.entries.data(),
                  graph.entries.extent(0),
                  static_cast<long long>(A.numCols()),
                  algorithm};
    auto [entry, inserted] = entries_.try_emplace(key);
    if (inserted) entry->second = Entry{graph, std::make_unique<KspmvHandle>(algorithm)};
    f(*entry->second.handle);
  }

 private:
  using Key =
      std::tuple<const void*, std::size_t, const void*, std::size_t, long long, kspmv::Algorithm>;
  struct Entry {
    typename AMatrix::StaticCrsGraphType graph;
    std::unique_ptr<KspmvHandle> handle;
  };
  std::map<Key, Entry> entries_;
};

// f(kspmv handle) with the kspmv handle standing in for the Kokkos Kernels handle on A.
template <class Scalar, class KokkosKernelsHandle, class AMatrix, class F>
void with_kspmv_handle(const KokkosKernelsHandle& handle, const AMatrix& A, F&& f) {
  using KspmvHandle =
      kspmv::Handle<AMatrix, typename KokkosKernelsHandle::ExecutionSpaceType, Scalar>;
  const kspmv::Algorithm algorithm =
      kspmv_algorithm_for<typename KspmvHandle::backend_type>(handle.get_algorithm());
  HandleCache<AMatrix, KspmvHandle>::instance().with_handle(A, algorithm, f);
}

// The forms of KokkosSparse::spmv, each answered by the same form of kspmv::spmv.

template <class ExecutionSpace, class Handle, class AlphaType, class AMatrix, class XVector,
          class BetaType, class YVector>
void spmv(const ExecutionSpace& space, Handle* handle, const char mode[], const AlphaType& alpha,
          const AMatrix& A, const XVector& x, const BetaType& beta, const YVector& y) {
  answer<AMatrix, XVector, YVector>(
      "spmv(exec, &handle, mode, alpha, A, x, beta, y)", A,
      [&](const auto& matrix) {
        with_kspmv_handle<typename YVector::non_const_value_type>(
            *handle, matrix, [&](auto& kspmv_handle) {
              kspmv::spmv(space, &kspmv_handle, mode, alpha, matrix, x, beta, y);
            });
      },
      [&](const auto& matrix) {
        KokkosSparse::spmv(space, handle, mode, alpha, matrix, x, beta, y);
      });
}

template <class Handle, class AlphaType, class AMatrix, class XVector, class BetaType,
          class YVector, class = std::enable_if_t<!Kokkos::is_execution_space<Handle>::value>>
void spmv(Handle* handle, const char mode[], const AlphaType& alpha, const AMatrix& A,
          const XVector& x, const BetaType& beta, const YVector& y) {
  answer<AMatrix, XVector, YVector>(
      "spmv(&handle, mode, alpha, A, x, beta, y)", A,
      [&](const auto& matrix) {
        with_kspmv_handle<typename YVector::non_const_value_type>(
            *handle, matrix, [&](auto& kspmv_handle) {
              kspmv::spmv(&kspmv_handle, mode, alpha, matrix, x, beta, y);
            });
      },
      [&](const auto& matrix) { KokkosSparse::spmv(handle, mode, alpha, matrix, x, beta, y); });
}

template <class ExecutionSpace, class AlphaType, class AMatrix, class XVector, class BetaType,
          class YVector,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
void spmv(const ExecutionSpace& space, const char mode[], const AlphaType& alpha, const AMatrix& A,
          const XVector& x, const BetaType& beta, const YVector& y) {
  answer<AMatrix, XVector, YVector>(
      "spmv(exec, mode, alpha, A, x, beta, y)", A,
      [&](const auto& matrix) { kspmv::spmv(space, mode, alpha, matrix, x, beta, y); },
      [&](const auto& matrix) { KokkosSparse::spmv(space, mode, alpha, matrix, x, beta, y); });
}

template <class AlphaType, class AMatrix, class XVector, class BetaType, class YVector>
void spmv(const char mode[], const AlphaType& alpha, const AMatrix& A, const XVector& x,
          const BetaType& beta, const YVector& y) {
  answer<AMatrix, XVector, YVector>(
      "spmv(mode, alpha, A, x, beta, y)", A,
      [&](const auto& matrix) { kspmv::spmv(mode, alpha, matrix, x, beta, y); },
      [&](const auto& matrix) { KokkosSparse::spmv(mode, alpha, matrix, x, beta, y); });
}

// A structured-grid stencil product: no kspmv form, so Kokkos Kernels answers it.
template <class AlphaType, class AMatrix, class XVector, class BetaType, class YVector>
void spmv_struct(
    const char mode[], const int stencil_type,
    const Kokkos::View<typename AMatrix::non_const_ordinal_type*, Kokkos::HostSpace>& structure,
    const AlphaType& alpha, const AMatrix& A, const XVector& x, const BetaType& beta,
    const YVector& y) {
  KokkosSparse::Experimental::spmv_struct(mode, stencil_type, structure, alpha, A, x, beta, y);
  count_call(call_name<AMatrix, XVector>("spmv_struct(mode, stencil_type, structure, alpha, A, x, "
                                         "beta, y)"),
             AnsweredBy::KokkosKernels, "structured SpMV (stencil kernels kspmv does not have)");
}

}  // namespace kspmv_kokkos_kernels_suite
