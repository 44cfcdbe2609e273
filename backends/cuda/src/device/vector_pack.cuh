#pragma once
// N elements of a row of x (x(column, v .. v + N)) for a lane of the group kernel that multiplies N
// vectors: it shuffles each entry's column and value once for N products. Neighbouring elements of
// an aligned row-major block are read with one 8- or 16-byte load; others one load an element.

#include <cstdint>
#include <type_traits>

#include "device/device_scalar.cuh"
#include "device/pack_width.hpp"

namespace kspmv::cuda::detail {

// The vectors a lane of a group of `width` multiplies where x's rows are contiguous
// (pack_width.hpp).
template <class T>
constexpr int pack_for_width(int width) {
  return pack_for_width(std::is_arithmetic_v<T>, static_cast<int>(sizeof(T)), width);
}

template <class T, int N>
struct Pack {
  T part[N];
};

// The CUDA vector type of N elements of T (N > 1): a complex value's pair for two.
template <class T, int N>
struct packed_load_type;
template <class T>
struct packed_load_type<T, 2> : pair_of<T> {};
template <>
struct packed_load_type<float, 4> {
  using type = float4;
};

// Read-only load of pointer[0 .. N), pointer aligned to N * sizeof(T).
template <int N, class T>
__device__ inline Pack<T, N> load_pack_readonly(const T* pointer) {
  if constexpr (N == 1) {
    return {load_readonly(pointer)};
  } else {
    using Load = typename packed_load_type<T, N>::type;
    const Load loaded = __ldg(reinterpret_cast<const Load*>(pointer));
    Pack<T, N> pack;
    static_assert(sizeof(Load) == sizeof(pack));
    __builtin_memcpy(&pack, &loaded, sizeof(pack));
    return pack;
  }
}

// Read-only loads of pointer[v * stride] for v in [0, N), the first `count` of them (at least one):
// the others read pointer[0] and are not used, so that no load reaches past the vectors asked for.
template <int N, class T>
__device__ inline Pack<T, N> load_apart_readonly(const T* pointer, std::int64_t stride, int count) {
  Pack<T, N> pack;
#pragma unroll
  for (int v = 0; v < N; ++v) pack.part[v] = load_readonly(pointer + (v < count ? v * stride : 0));
  return pack;
}

}  // namespace kspmv::cuda::detail
