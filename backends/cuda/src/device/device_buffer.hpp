#pragma once
// An owning, move-only device array (the plan's auxiliary arrays). Every device allocation of the
// backend is one, behind the fault-injection point (kspmv/detail/fault_injection.hpp).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "device/cuda_check.hpp"
#include "kspmv/detail/fault_injection.hpp"

namespace kspmv::cuda::detail {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t size) : size_(size) {
    if (size > 0) KSPMV_CUDA_CHECK(allocate(&data_, size * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  static cudaError_t allocate(T** data, std::size_t bytes) {
    if (kspmv::detail::injected_allocation_failure()) return cudaErrorMemoryAllocation;
    return cudaMalloc(data, bytes);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace kspmv::cuda::detail
