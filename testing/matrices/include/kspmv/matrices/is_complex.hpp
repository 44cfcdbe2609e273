#pragma once

#include <complex>
#include <type_traits>

namespace kspmv::matrices {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

}  // namespace kspmv::matrices
