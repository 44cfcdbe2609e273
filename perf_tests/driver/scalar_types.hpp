#pragma once
// The harness's scalars as Kokkos stores them: std::complex<R> is Kokkos::complex<R>, laid out the
// same (two R, real part first), so arrays of one are read as arrays of the other (the other way:
// kspmv::detail::std_scalar_t).

#include <Kokkos_Core.hpp>

#include <complex>

namespace kspmv::bench {

template <class Scalar>
struct kokkos_scalar {
  using type = Scalar;
};
template <class Real>
struct kokkos_scalar<std::complex<Real>> {
  using type = Kokkos::complex<Real>;
};
template <class Scalar>
using kokkos_scalar_t = typename kokkos_scalar<Scalar>::type;

}  // namespace kspmv::bench
