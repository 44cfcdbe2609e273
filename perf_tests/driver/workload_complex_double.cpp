// make_workload for std::complex<double>.
#include <complex>

#include "workload_impl.hpp"

KSPMV_BENCH_INSTANTIATE_WORKLOAD(std::complex<double>)
