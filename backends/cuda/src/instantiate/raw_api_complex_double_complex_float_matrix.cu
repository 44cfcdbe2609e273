// The raw-pointer API (Plan, apply_without_plan) for std::complex<double> vectors with a
// std::complex<float> matrix, for every ordinal and offset type.
#include <complex>

#include "instantiate/instantiate.cuh"

KSPMV_INSTANTIATE_RAW_API(std::complex<double>, std::complex<float>)
