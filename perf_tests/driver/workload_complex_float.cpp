// make_workload for std::complex<float>.
#include <complex>

#include "workload_impl.hpp"

KSPMV_BENCH_INSTANTIATE_WORKLOAD(std::complex<float>)
