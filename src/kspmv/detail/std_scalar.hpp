#pragma once
// Kokkos::complex<T> and std::complex<T> share their layout ({real, imaginary}): code that speaks
// std::complex (the CUDA backend's raw-pointer API, the reference oracle) reads Kokkos data as
// such.

#include <Kokkos_Core.hpp>

#include <complex>

namespace kspmv::detail {

template <class T>
struct std_scalar {
  using type = T;
};
template <class T>
struct std_scalar<Kokkos::complex<T>> {
  using type = std::complex<T>;
  static_assert(sizeof(Kokkos::complex<T>) == sizeof(std::complex<T>));
};
template <class T>
using std_scalar_t = typename std_scalar<T>::type;

}  // namespace kspmv::detail
