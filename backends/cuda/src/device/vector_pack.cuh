#pragma once
// N neighbouring elements of a row-major block (x(column, v .. v + N)), read with one 8- or 16-byte
// load: a lane of the group kernel that multiplies N vectors shuffles each entry's column and value
// once and issues one load of x for N products.

#include <type_traits>

#include "device/device_scalar.cuh"

namespace kspmv::cuda::detail {

// The most elements of T one load reads (16 bytes); complex values stay one a load.
template <class T>
inline constexpr int kLargestPack = std::is_arithmetic_v<T> ? 16 / static_cast<int>(sizeof(T)) : 1;

// The vectors a lane of a group of `width` reads at once where x's rows allow packs.
template <class T>
constexpr int pack_for_width(int width) {
  return width < kLargestPack<T> ? width : kLargestPack<T>;
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

}  // namespace kspmv::cuda::detail
