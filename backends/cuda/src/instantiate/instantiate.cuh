#pragma once
// The raw-pointer API for one pair of vector and matrix scalar types and every ordinal and offset
// type: included by one translation unit per pair (which keeps compilation parallel and each unit
// small).

#include <cstddef>
#include <cstdint>

#include "instantiate/plan_impl.cuh"
#include "instantiate/without_plan_impl.cuh"

#define KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, ORDINAL, OFFSET)             \
  template class kspmv::cuda::Plan<SCALAR, ORDINAL, OFFSET, MATRIX_SCALAR>;               \
  template void kspmv::cuda::apply_without_plan<SCALAR, ORDINAL, OFFSET, MATRIX_SCALAR>(  \
      kspmv::Mode, SCALAR, const kspmv::cuda::CsrMatrix<MATRIX_SCALAR, ORDINAL, OFFSET>&, \
      kspmv::cuda::DenseBlock<const SCALAR>, SCALAR, kspmv::cuda::DenseBlock<SCALAR>,     \
      cudaStream_t, kspmv::cuda::WithoutPlanOptions);

#define KSPMV_INSTANTIATE_RAW_API(SCALAR, MATRIX_SCALAR)                           \
  KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, std::int32_t, std::int32_t) \
  KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, std::int32_t, std::int64_t) \
  KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, std::int32_t, std::size_t)  \
  KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, std::int64_t, std::int32_t) \
  KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, std::int64_t, std::int64_t) \
  KSPMV_INSTANTIATE_FOR_INDICES(SCALAR, MATRIX_SCALAR, std::int64_t, std::size_t)
