#pragma once
// cuSPARSE's CSR product (the baseline), y = op(A) x + beta y for one algorithm and operation, set
// up once like a kspmv plan: SpMV for one vector, SpMM for several, whose dense blocks are
// column-major for LayoutLeft and row-major for LayoutRight (what kspmv is given).

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <chrono>
#include <complex>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_status.hpp"
#include "device_csr.hpp"
#include "kspmv/mode.hpp"

namespace kspmv::bench {

inline void check_cusparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + cusparseGetErrorString(status));
  }
}

// x and y: `vectors` columns, stored by row (LayoutRight) or by column.
struct DenseShape {
  std::int64_t vectors = 1;
  bool layout_right = false;
};

// cuSPARSE's data type of a real or std::complex scalar.
template <class Scalar>
constexpr cudaDataType cuda_data_type() {
  if constexpr (std::is_same_v<Scalar, double>) return CUDA_R_64F;
  if constexpr (std::is_same_v<Scalar, float>) return CUDA_R_32F;
  if constexpr (std::is_same_v<Scalar, std::complex<double>>) return CUDA_C_64F;
  if constexpr (std::is_same_v<Scalar, std::complex<float>>) return CUDA_C_32F;
}

// cuSPARSE's op(A) of the modes it has (not "C", A conjugated without transposing).
inline cusparseOperation_t cusparse_operation(Mode mode) {
  switch (mode) {
    case Mode::NoTranspose:
      return CUSPARSE_OPERATION_NON_TRANSPOSE;
    case Mode::Transpose:
      return CUSPARSE_OPERATION_TRANSPOSE;
    case Mode::ConjugateTranspose:
      return CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    default:
      throw std::invalid_argument(std::string("cuSPARSE has no operation for mode ") +
                                  to_string(mode));
  }
}

// The CSR algorithms of SpMV (one vector) or SpMM (several): "ALG1", "ALG2"(, "ALG3").
inline std::vector<std::string> cusparse_algorithm_names(std::int64_t vectors) {
  if (vectors == 1) return {"ALG1", "ALG2"};
  return {"ALG1", "ALG2", "ALG3"};
}

template <class Scalar>
class CusparseProduct {
 public:
  static constexpr cudaDataType kType = cuda_data_type<Scalar>();

  // `algorithm`: one of cusparse_algorithm_names(dense.vectors).
  CusparseProduct(const DeviceCsr<Scalar, std::int32_t, std::int32_t>& A, const Scalar* x,
                  Scalar* y, DenseShape dense, const std::string& algorithm,
                  cusparseOperation_t operation, Scalar beta, cudaStream_t stream)
      : operation_(operation), beta_(beta) {
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
    std::size_t bytes = 0;
    if (dense.vectors == 1) {
      spmv_algorithm_ = algorithm == "ALG1" ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
      check_cusparse(cusparseCreateDnVec(&x_vector_, x_length, const_cast<Scalar*>(x), kType),
                     "cusparseCreateDnVec");
      check_cusparse(cusparseCreateDnVec(&y_vector_, y_length, y, kType), "cusparseCreateDnVec");
      check_cusparse(cusparseSpMV_bufferSize(handle_, operation_, &one_, matrix_, x_vector_, &beta_,
                                             y_vector_, kType, spmv_algorithm_, &bytes),
                     "cusparseSpMV_bufferSize");
      check(cudaMalloc(&buffer_, bytes > 0 ? bytes : 1), "cudaMalloc");
      check_cusparse(cusparseSpMV_preprocess(handle_, operation_, &one_, matrix_, x_vector_, &beta_,
                                             y_vector_, kType, spmv_algorithm_, buffer_),
                     "cusparseSpMV_preprocess");
    } else {
      spmm_algorithm_ = algorithm == "ALG1"   ? CUSPARSE_SPMM_CSR_ALG1
                        : algorithm == "ALG2" ? CUSPARSE_SPMM_CSR_ALG2
                                              : CUSPARSE_SPMM_CSR_ALG3;
      const auto order = dense.layout_right ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
      const auto leading = [&](std::int64_t rows) {
        return dense.layout_right ? dense.vectors : rows;
      };
      check_cusparse(cusparseCreateDnMat(&x_block_, x_length, dense.vectors, leading(x_length),
                                         const_cast<Scalar*>(x), kType, order),
                     "cusparseCreateDnMat");
      check_cusparse(cusparseCreateDnMat(&y_block_, y_length, dense.vectors, leading(y_length), y,
                                         kType, order),
                     "cusparseCreateDnMat");
      check_cusparse(cusparseSpMM_bufferSize(handle_, operation_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                             &one_, matrix_, x_block_, &beta_, y_block_, kType,
                                             spmm_algorithm_, &bytes),
                     "cusparseSpMM_bufferSize");
      check(cudaMalloc(&buffer_, bytes > 0 ? bytes : 1), "cudaMalloc");
      check_cusparse(cusparseSpMM_preprocess(handle_, operation_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                             &one_, matrix_, x_block_, &beta_, y_block_, kType,
                                             spmm_algorithm_, buffer_),
                     "cusparseSpMM_preprocess");
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    setup_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  ~CusparseProduct() {
    cudaFree(buffer_);
    if (y_block_ != nullptr) cusparseDestroyDnMat(y_block_);
    if (x_block_ != nullptr) cusparseDestroyDnMat(x_block_);
    if (y_vector_ != nullptr) cusparseDestroyDnVec(y_vector_);
    if (x_vector_ != nullptr) cusparseDestroyDnVec(x_vector_);
    cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }
  CusparseProduct(const CusparseProduct&) = delete;
  CusparseProduct& operator=(const CusparseProduct&) = delete;

  double setup_seconds() const { return setup_seconds_; }

  void apply() {
    if (x_vector_ != nullptr) {
      check_cusparse(cusparseSpMV(handle_, operation_, &one_, matrix_, x_vector_, &beta_, y_vector_,
                                  kType, spmv_algorithm_, buffer_),
                     "cusparseSpMV");
    } else {
      check_cusparse(
          cusparseSpMM(handle_, operation_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, matrix_,
                       x_block_, &beta_, y_block_, kType, spmm_algorithm_, buffer_),
          "cusparseSpMM");
    }
  }

 private:
  cusparseOperation_t operation_;
  cusparseSpMVAlg_t spmv_algorithm_ = CUSPARSE_SPMV_CSR_ALG1;
  cusparseSpMMAlg_t spmm_algorithm_ = CUSPARSE_SPMM_CSR_ALG1;
  Scalar one_ = 1;
  Scalar beta_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;
  cusparseDnVecDescr_t x_vector_ = nullptr;
  cusparseDnVecDescr_t y_vector_ = nullptr;
  cusparseDnMatDescr_t x_block_ = nullptr;
  cusparseDnMatDescr_t y_block_ = nullptr;
  void* buffer_ = nullptr;
  double setup_seconds_ = 0;
};

}  // namespace kspmv::bench
