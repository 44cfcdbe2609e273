// Included by the extracted Kokkos Kernels test headers where they included
// Test_Common_Test_All_Type_Combos.hpp (extract_tests.cmake, rule 2): instantiates their current
// KOKKOSKERNELS_EXECUTE_TEST for the one type combination of this translation unit, or for none
// in a unit of the untyped tests. No include guard: a header includes it once per group of tests.

#if defined(KSPMV_KOKKOS_KERNELS_SCALAR)
KSPMV_KOKKOS_KERNELS_INSTANTIATE(KSPMV_KOKKOS_KERNELS_SCALAR, KSPMV_KOKKOS_KERNELS_ORDINAL,
                                 KSPMV_KOKKOS_KERNELS_OFFSET)
#endif
