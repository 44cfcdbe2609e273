#pragma once
/// @file
/// Which matrix values a product with vectors of type Scalar takes: Scalar itself, or its single
/// precision counterpart (float for double; complex<float> for complex<double>, with std::complex
/// and Kokkos::complex alike). Single precision values are widened exactly when they are loaded;
/// products and sums are formed in Scalar. It halves the value bytes of a solver that keeps its
/// matrix in single precision. Kokkos-free, for the front end and the CUDA backend alike.

#include <type_traits>

namespace kspmv {

/// Whether a matrix of MatrixScalar values may multiply vectors of Scalar: a
/// std::integral_constant<bool, ...> that is true where MatrixScalar is Scalar or its single
/// precision counterpart. kspmv::Handle's and kspmv::cuda::Plan's template arguments must satisfy
/// it (checked at compile time).
/// @tparam MatrixScalar the type of A's values.
/// @tparam Scalar the type of x and y, in which products and sums are formed.
template <class MatrixScalar, class Scalar>
struct is_matrix_scalar_for : std::is_same<MatrixScalar, Scalar> {};
/// A float matrix multiplies double vectors.
template <>
struct is_matrix_scalar_for<float, double> : std::true_type {};
/// A complex<float> matrix multiplies complex<double> vectors (std::complex or Kokkos::complex).
/// @tparam Complex std::complex or Kokkos::complex.
template <template <class> class Complex>
struct is_matrix_scalar_for<Complex<float>, Complex<double>> : std::true_type {};

/// kspmv::is_matrix_scalar_for<MatrixScalar, Scalar>::value.
/// @tparam MatrixScalar the type of A's values.
/// @tparam Scalar the type of x and y.
template <class MatrixScalar, class Scalar>
inline constexpr bool is_matrix_scalar_for_v = is_matrix_scalar_for<MatrixScalar, Scalar>::value;

}  // namespace kspmv
