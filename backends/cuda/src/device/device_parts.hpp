#pragma once
// A step's temporaries as parts of one device allocation: each large cudaMalloc and cudaFree costs
// the host time of its own (DR-51), so a step makes one. Unlike carver(), the parts are listed once
// and each is aligned to 256 bytes, as cub's temporary storage expects, in any order.

#include <cstddef>

#include "device/device_buffer.hpp"

namespace kspmv::cuda::detail {

// Points each part asked for at the next 256-byte boundary of `memory`; with no memory, only counts
// the bytes the parts need (and leaves them null).
class PartCarver {
 public:
  explicit PartCarver(unsigned char* memory) : memory_(memory) {}

  template <class T>
  void operator()(T*& part, std::size_t count) {
    part = memory_ == nullptr ? nullptr : reinterpret_cast<T*>(memory_ + bytes_);
    bytes_ += (count * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
  }

  std::size_t bytes() const { return bytes_; }

 private:
  static constexpr std::size_t kAlignment = 256;
  unsigned char* memory_;
  std::size_t bytes_ = 0;
};

// One allocation for the parts that carve_parts(PartCarver&) asks for, and their pointers set into
// it: carve_parts runs twice, to size the allocation, then to carve it.
template <class CarveParts>
DeviceBuffer<unsigned char> allocate_parts(CarveParts carve_parts) {
  PartCarver sizing(nullptr);
  carve_parts(sizing);
  DeviceBuffer<unsigned char> memory(sizing.bytes());
  PartCarver carving(memory.data());
  carve_parts(carving);
  return memory;
}

}  // namespace kspmv::cuda::detail
