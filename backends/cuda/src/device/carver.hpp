#pragma once
// Parts of one device allocation (a cudaMalloc costs tens of microseconds, so a plan makes few).
// Plain C++, no CUDA header: the carving is tested on the CPU.

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

// Points each part asked for at the next 256-byte boundary of `memory` (as cub's temporary storage
// expects), in any order; with no memory, only counts the bytes the parts need (and leaves them
// null). Unlike carver(), the parts can be listed once, for a sizing pass and a carving pass
// (allocate_parts, device_parts.hpp).
class PartCarver {
 public:
  static constexpr std::size_t kAlignment = 256;

  explicit PartCarver(unsigned char* memory) : memory_(memory) {}

  template <class T>
  void operator()(T*& part, std::size_t count) {
    part = memory_ == nullptr ? nullptr : reinterpret_cast<T*>(memory_ + bytes_);
    bytes_ += (count * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
  }

  std::size_t bytes() const { return bytes_; }

 private:
  unsigned char* memory_;
  std::size_t bytes_ = 0;
};

}  // namespace kspmv::cuda::detail
