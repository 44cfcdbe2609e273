#pragma once
// A step's temporaries as parts of one device allocation: each large cudaMalloc and cudaFree costs
// the host time of its own (DR-51), so a step makes one.

#include "device/carver.hpp"
#include "device/device_buffer.hpp"

namespace kspmv::cuda::detail {

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
