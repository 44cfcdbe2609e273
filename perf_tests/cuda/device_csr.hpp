#pragma once
// Device copies of a host CSR matrix and of dense vectors, for the benchmark.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "cuda_status.hpp"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/matrices/host_csr.hpp"

namespace kspmv::bench {

template <class T>
class DeviceVector {
 public:
  explicit DeviceVector(std::size_t size) : size_(size) {
    check(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<std::size_t>(size, 1) * sizeof(T)),
          "cudaMalloc");
  }
  explicit DeviceVector(const std::vector<T>& host) : DeviceVector(host.size()) {
    check(cudaMemcpy(data_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  ~DeviceVector() { cudaFree(data_); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    check(cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class Scalar, class Ordinal, class Offset>
struct DeviceCsr {
  explicit DeviceCsr(const matrices::HostCsr<Scalar, Ordinal, Offset>& host)
      : num_rows(host.num_rows),
        num_cols(host.num_cols),
        row_map(host.row_map),
        entries(host.entries),
        values(host.values) {}

  cuda::CsrMatrix<Scalar, Ordinal, Offset> matrix() const {
    return {static_cast<Ordinal>(num_rows),
            static_cast<Ordinal>(num_cols),
            static_cast<Offset>(entries.size()),
            row_map.data(),
            entries.data(),
            values.data()};
  }

  std::int64_t num_rows;
  std::int64_t num_cols;
  DeviceVector<Offset> row_map;
  DeviceVector<Ordinal> entries;
  DeviceVector<Scalar> values;
};

}  // namespace kspmv::bench
