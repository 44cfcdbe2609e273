#pragma once
// cuSPARSE's CSR SpMV (the baseline), y = op(A) x + beta y for one algorithm and operation, set
// up once like a kspmv plan.

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda_status.hpp"
#include "device_csr.hpp"

namespace kspmv::bench {

inline void check_cusparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + cusparseGetErrorString(status));
  }
}

template <class Scalar>
class CusparseSpmv {
 public:
  static constexpr cudaDataType kType = std::is_same_v<Scalar, double> ? CUDA_R_64F : CUDA_R_32F;

  CusparseSpmv(const DeviceCsr<Scalar, std::int32_t, std::int32_t>& A, const Scalar* x, Scalar* y,
               cusparseSpMVAlg_t algorithm, cusparseOperation_t operation, Scalar beta,
               cudaStream_t stream)
      : algorithm_(algorithm), operation_(operation), beta_(beta) {
    const bool transposed = operation != CUSPARSE_OPERATION_NON_TRANSPOSE;
    const auto x_length = transposed ? A.num_rows : A.num_cols;
    const auto y_length = transposed ? A.num_cols : A.num_rows;
    const auto start = std::chrono::steady_clock::now();
    check_cusparse(cusparseCreate(&handle_), "cusparseCreate");
    check_cusparse(cusparseSetStream(handle_, stream), "cusparseSetStream");
    check_cusparse(cusparseCreateCsr(&matrix_, A.num_rows, A.num_cols,
                                     static_cast<std::int64_t>(A.entries.size()), A.row_map.data(),
                                     A.entries.data(), A.values.data(), CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, kType),
                   "cusparseCreateCsr");
    check_cusparse(cusparseCreateDnVec(&x_, x_length, const_cast<Scalar*>(x), kType),
                   "cusparseCreateDnVec");
    check_cusparse(cusparseCreateDnVec(&y_, y_length, y, kType), "cusparseCreateDnVec");
    std::size_t bytes = 0;
    check_cusparse(cusparseSpMV_bufferSize(handle_, operation_, &one_, matrix_, x_, &beta_, y_,
                                           kType, algorithm_, &bytes),
                   "cusparseSpMV_bufferSize");
    check(cudaMalloc(&buffer_, bytes > 0 ? bytes : 1), "cudaMalloc");
    check_cusparse(cusparseSpMV_preprocess(handle_, operation_, &one_, matrix_, x_, &beta_, y_,
                                           kType, algorithm_, buffer_),
                   "cusparseSpMV_preprocess");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    setup_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  ~CusparseSpmv() {
    cudaFree(buffer_);
    cusparseDestroyDnVec(y_);
    cusparseDestroyDnVec(x_);
    cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;

  double setup_seconds() const { return setup_seconds_; }

  void apply() {
    check_cusparse(cusparseSpMV(handle_, operation_, &one_, matrix_, x_, &beta_, y_, kType,
                                algorithm_, buffer_),
                   "cusparseSpMV");
  }

 private:
  cusparseSpMVAlg_t algorithm_;
  cusparseOperation_t operation_;
  Scalar one_ = 1;
  Scalar beta_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;
  cusparseDnVecDescr_t x_ = nullptr;
  cusparseDnVecDescr_t y_ = nullptr;
  void* buffer_ = nullptr;
  double setup_seconds_ = 0;
};

}  // namespace kspmv::bench
