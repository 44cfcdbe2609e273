// kspmv_tpetra_overhead: what kspmv::tpetra::CrsOperator costs over Tpetra's own CrsMatrix::apply.
// On Debian's Trilinos (Kokkos Serial) both local products are the same Kokkos Kernels call, so the
// ratio is the wrapper's overhead (we allow at most 3%). The two are timed in ABBA order,
// batch by batch, in one run, so that load and clock changes cancel in the ratio; a batch's time is
// the slowest rank's. Rank 0 reports (Google Benchmark's console and JSON); run it under mpirun:
//   mpirun -np 2 kspmv_tpetra_overhead [--grid N] [Google Benchmark flags]

#include <benchmark/benchmark.h>
#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "kspmv/testing/tpetra_problems.hpp"

namespace {

using namespace kspmv::tpetra::testing;

// The seconds `calls` applies take on the slowest rank.
template <class Apply>
double timed(int calls, Apply&& apply) {
  comm()->barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) apply();
  comm()->barrier();
  const double mine =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double slowest = 0;
  Teuchos::reduceAll(*comm(), Teuchos::REDUCE_MAX, mine, Teuchos::outArg(slowest));
  return slowest;
}

void overhead(benchmark::State& state, long grid, Teuchos::ETransp mode, bool overlap) {
  const auto vectors = static_cast<std::size_t>(state.range(0));
  const auto A = poisson(grid, Distribution::contiguous);
  const auto op = kspmv::tpetra::make_operator(A);
  op->set_overlap(overlap);
  MultiVector X(A->getDomainMap(), vectors), Y(A->getRangeMap(), vectors);
  fill(X, 1);
  const auto tpetra = [&] { A->apply(X, Y, mode); };
  const auto kspmv = [&] { op->apply(X, Y, mode); };
  int calls = 1;
  while (timed(calls, tpetra) < 0.02 && calls < (1 << 20)) calls *= 2;  // batches of >= 20 ms
  timed(calls, kspmv);                                                  // its setup, then warm
  std::vector<double> ratios;
  double tpetra_seconds = 0, kspmv_seconds = 0;
  bool kspmv_first = false;
  for (auto _ : state) {
    const double a = kspmv_first ? timed(calls, kspmv) : timed(calls, tpetra);
    const double b = kspmv_first ? timed(calls, tpetra) : timed(calls, kspmv);
    const double t = kspmv_first ? b : a, k = kspmv_first ? a : b;
    kspmv_first = !kspmv_first;
    tpetra_seconds += t;
    kspmv_seconds += k;
    ratios.push_back(k / t);
    state.SetIterationTime(k / calls);
  }
  std::sort(ratios.begin(), ratios.end());
  state.counters["ranks"] = comm()->getSize();
  state.counters["rows"] = static_cast<double>(A->getGlobalNumRows());
  state.counters["nnz"] = static_cast<double>(A->getGlobalNumEntries());
  state.counters["vectors"] = static_cast<double>(vectors);
  state.counters["tpetra_seconds_per_apply"] = tpetra_seconds / calls / ratios.size();
  state.counters["kspmv_seconds_per_apply"] = kspmv_seconds / calls / ratios.size();
  state.counters["median_ratio"] = ratios[ratios.size() / 2];
  state.SetLabel("kspmv operator time / CrsMatrix::apply time, per batch pair");
}

// Rank 0 reports; the other ranks run the same batches (every timing is collective) silently.
class Silent : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  Tpetra::ScopeGuard tpetra(&argc, &argv);
  const bool reports = comm()->getRank() == 0;
  long grid = 60;
  std::vector<char*> arguments;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--grid") == 0 && i + 1 < argc) {
      grid = std::stol(argv[++i]);
    } else if (!reports && std::strncmp(argv[i], "--benchmark_out", 15) == 0) {
      // Rank 0 alone writes the JSON; elsewhere the flag would make Google Benchmark open the file.
    } else {
      arguments.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(arguments.size());
  benchmark::Initialize(&count, arguments.data());
  // N: the interior rows multiplied while the Import is in flight (the operator's default, with one
  // vector); N_no_overlap: every row after it, as CrsMatrix::apply does.
  struct Variant {
    const char* name;
    Teuchos::ETransp mode;
    bool overlap;
  };
  for (const Variant& variant :
       {Variant{"N", Teuchos::NO_TRANS, true}, Variant{"N_no_overlap", Teuchos::NO_TRANS, false},
        Variant{"T", Teuchos::TRANS, true}}) {
    benchmark::RegisterBenchmark(
        ("tpetra_overhead/poisson" + std::to_string(grid) + "/" + variant.name).c_str(),
        [grid, variant](benchmark::State& state) {
          overhead(state, grid, variant.mode, variant.overlap);
        })
        ->Arg(1)
        ->Arg(4)
        ->Iterations(10)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  if (reports) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    Silent silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}
