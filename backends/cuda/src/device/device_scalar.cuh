#pragma once
// The scalar types as the kernels see them. std::complex is not usable in device code, and the C99
// Annex G multiply (NaN/Inf recovery) is slow, so complex values become a plain two-field struct
// with the textbook operations; float and double stay themselves.

#include <complex>
#include <cstdint>
#include <type_traits>

namespace kspmv::cuda::detail {

// Same layout as std::complex<Real> (two consecutive Reals), so arrays of one can be read as the
// other. Aligned to its size, as Kokkos::complex is and cuSPARSE requires of complex arrays, so
// that one value is one 8- or 16-byte load: two loads of half the width double the load
// instructions and the requests for x (call_checks.cuh checks the alignment of the user's
// arrays).
template <class Real>
struct alignas(2 * sizeof(Real)) Complex {
  using real_type = Real;
  Real re;
  Real im;
};

// The CUDA vector type of a Complex<Real>'s size, for its loads and stores.
template <class Real>
struct pair_of;
template <>
struct pair_of<float> {
  using type = float2;
};
template <>
struct pair_of<double> {
  using type = double2;
};

template <class Real>
__host__ __device__ inline Complex<Real> operator+(Complex<Real> a, Complex<Real> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class Real>
__host__ __device__ inline Complex<Real> operator*(Complex<Real> a, Complex<Real> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class Real>
__host__ __device__ inline Complex<Real>& operator+=(Complex<Real>& a, Complex<Real> b) {
  a = a + b;
  return a;
}

template <class Scalar>
struct device_type {
  using type = Scalar;
};
template <class Real>
struct device_type<std::complex<Real>> {
  using type = Complex<Real>;
};
template <class Scalar>
using device_t = typename device_type<Scalar>::type;

template <class Scalar>
inline device_t<Scalar> to_device(Scalar value) {
  if constexpr (std::is_arithmetic_v<Scalar>) {
    return value;
  } else {
    return {value.real(), value.imag()};
  }
}

template <class Scalar>
inline device_t<Scalar>* to_device(Scalar* pointer) {
  return reinterpret_cast<device_t<Scalar>*>(pointer);
}
template <class Scalar>
inline const device_t<Scalar>* to_device(const Scalar* pointer) {
  return reinterpret_cast<const device_t<Scalar>*>(pointer);
}

// A matrix value in the vectors' type: the same type, or single precision widened exactly (fp32
// values for fp64 vectors, complex<float> for complex<double>).
template <class T, class V>
__device__ inline T widen(V value) {
  if constexpr (std::is_same_v<T, V>) {
    return value;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<T>(value);
  } else {
    using Real = typename T::real_type;
    return {static_cast<Real>(value.re), static_cast<Real>(value.im)};
  }
}

template <class T>
__host__ __device__ constexpr T one() {
  if constexpr (std::is_arithmetic_v<T>) {
    return T(1);
  } else {
    using Real = typename T::real_type;
    return {Real(1), Real(0)};
  }
}

template <class T>
__device__ inline T conjugate_if(T value, bool conjugate) {
  if constexpr (std::is_arithmetic_v<T>) {
    return value;
  } else {
    return conjugate ? T{value.re, -value.im} : value;
  }
}

// `load` (one of the cache-hinted intrinsics) of a value, a complex one as one vector load.
template <class T, class Load>
__device__ inline T load_with(const T* pointer, Load&& load) {
  if constexpr (std::is_arithmetic_v<T>) {
    return load(pointer);
  } else {
    using Pair = typename pair_of<typename T::real_type>::type;
    const Pair pair = load(reinterpret_cast<const Pair*>(pointer));
    return {pair.x, pair.y};
  }
}

// Read-only (non-coherent cache) load.
template <class T>
__device__ inline T load_readonly(const T* pointer) {
  return load_with(pointer, [](auto* p) { return __ldg(p); });
}

// Load of data read once (the matrix): evict-first in L1 and L2, so that x, which is gathered many
// times, keeps its place in L2.
template <class T>
__device__ inline T load_streaming(const T* pointer) {
  return load_with(pointer, [](auto* p) { return __ldcs(p); });
}

// Store of data written once (y), evict-first likewise.
template <class T>
__device__ inline void store_streaming(T* pointer, T value) {
  if constexpr (std::is_arithmetic_v<T>) {
    __stcs(pointer, value);
  } else {
    using Pair = typename pair_of<typename T::real_type>::type;
    __stcs(reinterpret_cast<Pair*>(pointer), Pair{value.re, value.im});
  }
}

// Asks L2 for the line holding `pointer` without waiting for it or holding a register.
template <class T>
__device__ inline void prefetch_to_l2(const T* pointer) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(pointer));
}

// Load that bypasses L1: sees what other blocks wrote (after their __threadfence) in this launch.
template <class T>
__device__ inline T load_coherent(const T* pointer) {
  return load_with(pointer, [](auto* p) { return __ldcg(p); });
}

// f applied to a value, or to each part of a complex one: the warp shuffles move one real at a
// time.
template <class T, class F>
__device__ inline T per_part(T value, F&& f) {
  if constexpr (std::is_arithmetic_v<T>) {
    return f(value);
  } else {
    return {f(value.re), f(value.im)};
  }
}

template <class T>
__device__ inline T shuffle_down(T value, unsigned offset, int width) {
  return per_part(value,
                  [&](auto part) { return __shfl_down_sync(0xffffffffu, part, offset, width); });
}

template <class T>
__device__ inline T shuffle_up(T value, unsigned offset) {
  return per_part(value, [&](auto part) { return __shfl_up_sync(0xffffffffu, part, offset); });
}

// The value of lane `source` of each group of `width` lanes (a power of two).
template <class T>
__device__ inline T shuffle(T value, int source, int width) {
  return per_part(value, [&](auto part) { return __shfl_sync(0xffffffffu, part, source, width); });
}

// The largest value over the warp, in every lane. Every lane of the warp must call it.
// One instruction from compute capability 8.0 on, five shuffles before.
__device__ inline int warp_max(int value) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, value);
#else
  for (int offset = 16; offset > 0; offset /= 2) {
    value = max(value, __shfl_xor_sync(0xffffffffu, value, offset));
  }
  return value;
#endif
}

// Sum over `width` consecutive lanes (a power of two), in a fixed tree order; lane 0 of each group
// holds the result. Every lane of the warp must call it.
template <class T>
__device__ inline T group_sum(T value, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) value += shuffle_down(value, offset, width);
  return value;
}

}  // namespace kspmv::cuda::detail
