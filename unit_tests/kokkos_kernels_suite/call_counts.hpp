#pragma once
// How many of the Kokkos Kernels tests' SpMV calls kspmv answered and how many stayed on Kokkos
// Kernels, by call form: the suite checks kspmv only through the calls it answers, so the run
// says which those were. GoogleTest runs the tests on one thread; so do the counts.

#include <cstdio>
#include <string>

namespace kspmv_kokkos_kernels_suite {

enum class AnsweredBy { Kspmv, KokkosKernels };

// `call` names the form and operands; `why` says why a call stayed on Kokkos Kernels.
void count_call(const std::string& call, AnsweredBy by, const char* why = "");

long calls_counted();

// One line of totals, then one line per call kind: kspmv's count, Kokkos Kernels', the call, and
// why any of it stayed on Kokkos Kernels.
void print_call_counts(std::FILE* out);

}  // namespace kspmv_kokkos_kernels_suite
