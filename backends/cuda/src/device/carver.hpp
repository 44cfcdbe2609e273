#pragma once
// Parts of one device allocation (a cudaMalloc costs tens of microseconds, so a plan makes few).

#include <cstddef>
#include <type_traits>

namespace kspmv::cuda::detail {

// Hands out consecutive parts of a device allocation, each `count` elements of its pointer's type,
// in the order asked: ask in order of decreasing alignment, so that each part stays aligned.
inline auto carver(unsigned char* memory) {
  return [next = memory](auto*& part, std::size_t count) mutable {
    part = reinterpret_cast<std::remove_reference_t<decltype(part)>>(next);
    next += count * sizeof(*part);
  };
}

}  // namespace kspmv::cuda::detail
