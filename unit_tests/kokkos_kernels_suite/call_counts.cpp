#include "call_counts.hpp"

#include <gtest/gtest.h>

#include <map>

namespace kspmv_kokkos_kernels_suite {
namespace {

struct Counts {
  long kspmv = 0;
  long kokkos_kernels = 0;
  std::string why;
};

// Ordered by the call's name, so forms and ranks print together.
std::map<std::string, Counts>& counts_by_call() {
  static std::map<std::string, Counts> counts;
  return counts;
}

}  // namespace

void count_call(const std::string& call, AnsweredBy by, const char* why) {
  Counts& counts = counts_by_call()[call];
  if (by == AnsweredBy::Kspmv) {
    ++counts.kspmv;
  } else {
    ++counts.kokkos_kernels;
    counts.why = why;
  }
}

long calls_counted() {
  long total = 0;
  for (const auto& [call, counts] : counts_by_call()) total += counts.kspmv + counts.kokkos_kernels;
  return total;
}

void print_call_counts(std::FILE* out) {
  long kspmv = 0;
  long kokkos_kernels = 0;
  for (const auto& [call, counts] : counts_by_call()) {
    kspmv += counts.kspmv;
    kokkos_kernels += counts.kokkos_kernels;
  }
  std::fprintf(out,
               "Kokkos Kernels' SpMV tests made %ld calls: %ld answered by kspmv, %ld left on "
               "Kokkos Kernels\n%10s %15s  call\n",
               kspmv + kokkos_kernels, kspmv, kokkos_kernels, "kspmv", "Kokkos Kernels");
  for (const auto& [call, counts] : counts_by_call()) {
    std::fprintf(out, "%10ld %15ld  %s%s%s\n", counts.kspmv, counts.kokkos_kernels, call.c_str(),
                 counts.why.empty() ? "" : ": on Kokkos Kernels, ", counts.why.c_str());
  }
}

namespace {

// After the tests (the program's main is the one of kspmv's Kokkos tests): the counts, and a
// failure where tests ran but no call reached the shim, since they then checked Kokkos Kernels, not
// kspmv, however green.
class CallCountReport : public ::testing::Environment {
 public:
  void TearDown() override {
    print_call_counts(stdout);
    if (::testing::UnitTest::GetInstance()->test_to_run_count() > 0 && calls_counted() == 0) {
      ADD_FAILURE() << "no spmv call reached the shim: the extracted tests were not redirected to "
                       "it (unit_tests/kokkos_kernels_suite/extract_tests.cmake)";
    }
  }
};

[[maybe_unused]] ::testing::Environment* const report =
    ::testing::AddGlobalTestEnvironment(new CallCountReport);

}  // namespace
}  // namespace kspmv_kokkos_kernels_suite
