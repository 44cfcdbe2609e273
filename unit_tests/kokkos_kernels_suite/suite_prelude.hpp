#pragma once
// What every translation unit of the suite includes before its Kokkos Kernels test header: the
// shim the header's spmv calls were redirected to, Kokkos Kernels' test fixture for the default
// execution space (TestCategory, TestDevice: the suite runs where kspmv's other Kokkos tests run),
// and the macro type_combination.hpp instantiates the unit's types with.

#include <KokkosKernels_config.h>
#include <Kokkos_Core.hpp>

#include "spmv_shim.hpp"

// The units test every type combination Kokkos Kernels lists for a build without ETI
// restriction, each layout included: a library built with ETI only has code for some of them.
// Its test option KokkosKernels_TEST_ETI_ONLY (on by default, and recorded in the installed
// configuration) would make the fixture headers narrow its own tests to what the library
// instantiated; for kspmv, every combination is compiled from the headers, as an application
// would.
#if defined(KOKKOSKERNELS_ETI_ONLY)
#error "Kokkos Kernels built with KokkosKernels_ETI_ONLY cannot link every type combination"
#endif
#undef KOKKOSKERNELS_TEST_ETI_ONLY

#if defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_CUDA)
#include <Test_Cuda.hpp>
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_HIP)
#include <Test_HIP.hpp>
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_SYCL)
#include <Test_SYCL.hpp>
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_OPENMPTARGET)
#include <Test_OpenMPTarget.hpp>
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_OPENMP)
#include <Test_OpenMP.hpp>
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_THREADS)
#include <Test_Threads.hpp>
#elif defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_SERIAL)
#include <Test_Serial.hpp>
#else
#error "Kokkos Kernels has no test fixture for the default execution space"
#endif

// A level of expansion between the unit's type macros and the test header's
// KOKKOSKERNELS_EXECUTE_TEST, whose ## pastes would otherwise take the macro names themselves
// (every unit would name its tests alike). TestDevice stays unexpanded, as in Kokkos Kernels' own
// list of combinations.
#define KSPMV_KOKKOS_KERNELS_INSTANTIATE(SCALAR, ORDINAL, OFFSET) \
  KOKKOSKERNELS_EXECUTE_TEST(SCALAR, ORDINAL, OFFSET, TestDevice)
