#pragma once
// Which matrix values a product with vectors of type Scalar takes: Scalar itself, or its single
// precision counterpart (float for double; complex<float> for complex<double>, with std::complex
// and Kokkos::complex alike). Single precision values are widened exactly when they are loaded;
// products and sums are formed in Scalar. It halves the value bytes of a solver that keeps its
// matrix in single precision. Kokkos-free, for the front end and the CUDA backend alike.

#include <type_traits>

namespace kspmv {

template <class MatrixScalar, class Scalar>
struct is_matrix_scalar_for : std::is_same<MatrixScalar, Scalar> {};
template <>
struct is_matrix_scalar_for<float, double> : std::true_type {};
template <template <class> class Complex>
struct is_matrix_scalar_for<Complex<float>, Complex<double>> : std::true_type {};

template <class MatrixScalar, class Scalar>
inline constexpr bool is_matrix_scalar_for_v = is_matrix_scalar_for<MatrixScalar, Scalar>::value;

}  // namespace kspmv
