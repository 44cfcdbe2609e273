#pragma once
// The one place that knows how Kokkos Kernels' spmv API changed between versions:
//   < 4.2  spmv(mode, alpha, A, x, beta, y)                     (Debian 12 ships 3.4)
//   4.2    spmv(exec, mode, alpha, A, x, beta, y)              ordered on an instance
//   >= 4.3 spmv(exec, &handle, mode, alpha, A, x, beta, y)     with a reusable SPMVHandle

#include <KokkosKernels_config.h>
#include <KokkosSparse_spmv.hpp>

#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>

#if !defined(KOKKOSKERNELS_VERSION)  // 3.x did not define it
#define KSPMV_KOKKOSKERNELS_VERSION 0
#else
#define KSPMV_KOKKOSKERNELS_VERSION KOKKOSKERNELS_VERSION
#endif

namespace kspmv::kokkoskernels::compat {

// Kokkos Kernels' handle is typed on the x and y View types, a kspmv handle is not: keep the last
// one made and remake it when a call brings other View types.
class HandleCache {
 public:
  template <class KkHandle>
  KkHandle& get() {
    if (!handle_ || type_ != std::type_index(typeid(KkHandle))) {
      handle_ =
          std::shared_ptr<void>(new KkHandle(), [](void* p) { delete static_cast<KkHandle*>(p); });
      type_ = std::type_index(typeid(KkHandle));
    }
    return *static_cast<KkHandle*>(handle_.get());
  }

 private:
  std::shared_ptr<void> handle_;
  std::type_index type_ = std::type_index(typeid(void));
};

// What KokkosSparse::spmv is, for describe(): the version and the form of call kspmv makes.
inline std::string spmv_description() {
#if KSPMV_KOKKOSKERNELS_VERSION >= 40300
  return "Kokkos Kernels " + std::to_string(KSPMV_KOKKOSKERNELS_VERSION / 10000) + "." +
         std::to_string(KSPMV_KOKKOSKERNELS_VERSION / 100 % 100) + "." +
         std::to_string(KSPMV_KOKKOSKERNELS_VERSION % 100) +
         " with a reusable SPMVHandle on its default algorithm";
#elif KSPMV_KOKKOSKERNELS_VERSION >= 40200
  return "Kokkos Kernels 4.2, on the caller's instance";
#else
  return "Kokkos Kernels 3.x, on the space's default instance";
#endif
}

template <class ExecSpace, class AMatrix, class XView, class YView, class Scalar>
void spmv(const ExecSpace& exec, HandleCache& cache, const char mode[], const Scalar& alpha,
          const AMatrix& A, const XView& x, const Scalar& beta, const YView& y) {
#if KSPMV_KOKKOSKERNELS_VERSION >= 40300
  using KkHandle = KokkosSparse::SPMVHandle<ExecSpace, AMatrix, XView, YView>;
  KokkosSparse::spmv(exec, &cache.get<KkHandle>(), mode, alpha, A, x, beta, y);
#elif KSPMV_KOKKOSKERNELS_VERSION >= 40200
  (void)cache;
  KokkosSparse::spmv(exec, mode, alpha, A, x, beta, y);
#else
  // No instance argument: the work goes to the default instance of ExecSpace. Fence the caller's
  // instance first so that work it enqueued on x and y is complete.
  (void)cache;
  exec.fence();
  KokkosSparse::spmv(mode, alpha, A, x, beta, y);
#endif
}

}  // namespace kspmv::kokkoskernels::compat
