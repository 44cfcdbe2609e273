// Several host threads calling at once (kspmv/handle.hpp, "Concurrency"): each thread drives an
// execution space instance of its own, with a handle of its own on a matrix of its own, and calls
// without a handle both on its own matrix and on one matrix every thread shares, so that what calls
// without a handle remember (the checked structures; on Kokkos::Cuda the plan cache) is read and
// filled by all threads at once. Modes N and T; every product against the long-double reference.
// Built with KSPMV_SANITIZE=thread it runs under ThreadSanitizer. A space whose instances are not
// for concurrent host threads (Kokkos::Threads, any host space before Kokkos 4.6) is skipped.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "instances.hpp"
#include "kokkos_support.hpp"
#include "kspmv/reference/spmv_reference.hpp"
#include "kspmv/spmv.hpp"

namespace {

using kspmv::testing::arrays;
using kspmv::testing::device_copy_of;
using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;

constexpr int kThreads = 4;  // at most
constexpr int kRounds = 12;
using HostMatrix = kspmv::testing::HostCsr<double, int, int>;
using HostVector = kspmv::reference::Block<double>;

// A matrix and, for each mode, an x and the reference product, on Exec's memory.
template <class Exec>
struct Problem {
  using Memory = typename Exec::memory_space;
  using Vector = Kokkos::View<double*, Memory>;
  HostMatrix host;
  Kokkos::View<int*, Memory> row_map;
  Kokkos::View<int*, Memory> entries;
  Kokkos::View<double*, Memory> values;
  Vector x[2];  // modes N, T
  kspmv::reference::Result<double> expected[2];

  Problem(std::int64_t rows, std::int64_t cols, std::mt19937_64& rng)
      : host(random_csr<double, int, int>(rows, cols, RowShape{0, 24}, rng)),
        row_map(device_copy_of<decltype(row_map)>("row_map", host.row_map)),
        entries(device_copy_of<decltype(entries)>("entries", host.entries)),
        values(device_copy_of<decltype(values)>("values", host.values)) {
    for (int m = 0; m < 2; ++m) {
      const auto mode = m == 0 ? kspmv::Mode::NoTranspose : kspmv::Mode::Transpose;
      const auto in = random_block<double>(m == 0 ? cols : rows, 1, rng);
      const HostVector unused{m == 0 ? rows : cols, 1, std::vector<double>(m == 0 ? rows : cols)};
      x[m] = device_copy_of<Vector>("x", in.data);
      expected[m] = kspmv::reference::spmv(mode, 1.0, arrays(host), in, 0.0, unused);
    }
  }
  auto view() const {
    return kspmv::make_crs_view(static_cast<int>(host.num_cols), row_map, entries, values);
  }
};

// One call on `exec` (y poisoned first, all on the instance), its error message against the
// reference ("" when within the bound).
template <class Exec, class Handle>
std::string call_and_compare(const Exec& exec, Handle* handle, const Problem<Exec>& problem,
                             int mode_index) {
  const char* mode = mode_index == 0 ? "N" : "T";
  const auto& expected = problem.expected[mode_index];
  const typename Problem<Exec>::Vector y("y", expected.value.n);
  Kokkos::deep_copy(exec, y, std::nan(""));
  if (handle != nullptr) {
    kspmv::spmv(exec, handle, mode, 1.0, problem.view(), problem.x[mode_index], 0.0, y);
  } else {
    kspmv::spmv(exec, mode, 1.0, problem.view(), problem.x[mode_index], 0.0, y);
  }
  HostVector got{expected.value.n, 1,
                 std::vector<double>(static_cast<std::size_t>(expected.value.n))};
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
      got.data.data(), got.data.size());
  Kokkos::deep_copy(exec, host, y);
  exec.fence();
  return kspmv::reference::compare(expected, got);
}

template <class Exec>
void run_threads_at_once() {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937_64 rng(seed);
  // Inputs made before the threads start, on the default instance: the threads only call.
  const Problem<Exec> shared(3000, 2500, rng);
  const int threads_at_once = std::min(kThreads, kspmv::testing::most_instances(Exec()));
  std::vector<Problem<Exec>> own;
  for (int t = 0; t < threads_at_once; ++t) own.emplace_back(2000 + 500 * t, 1800 + 300 * t, rng);
  const auto instances = kspmv::testing::other_instances(Exec(), threads_at_once);
  Kokkos::fence();

  std::vector<std::vector<std::string>> failures(threads_at_once);
  std::vector<std::thread> threads;
  for (int t = 0; t < threads_at_once; ++t) {
    threads.emplace_back([&, t] {
      const Exec& exec = instances[t];
      using HandleType = kspmv::Handle<decltype(own[t].view()), Exec>;
      HandleType handle;
      HandleType* const no_handle = nullptr;
      const auto check = [&](const std::string& what, const std::string& error) {
        if (!error.empty()) failures[t].push_back(what + ": " + error);
      };
      for (int round = 0; round < kRounds; ++round) {
        const int mode = (round + t) % 2;
        const std::string where =
            "thread " + std::to_string(t) + ", round " + std::to_string(round);
        check(where + ", with a handle", call_and_compare(exec, &handle, own[t], mode));
        check(where + ", without a handle", call_and_compare(exec, no_handle, own[t], mode));
        check(where + ", without a handle, the shared matrix",
              call_and_compare(exec, no_handle, shared, 1 - mode));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_GE(threads_at_once, 2) << "no concurrency tested";
  for (int t = 0; t < threads_at_once; ++t) {
    EXPECT_TRUE(failures[t].empty())
        << failures[t].size()
        << " wrong products, first: " << (failures[t].empty() ? "" : failures[t].front());
  }
}

template <class Exec>
void run_or_skip() {
  if constexpr (kspmv::testing::instances_run_concurrently<Exec>()) {
    run_threads_at_once<Exec>();
  } else {
    GTEST_SKIP() << Exec::name() << " instances are not for concurrent host threads in this Kokkos";
  }
}

}  // namespace

TEST(ConcurrencyStress, DefaultSpaceThreadsAtOnce) {
  run_or_skip<Kokkos::DefaultExecutionSpace>();
}

TEST(ConcurrencyStress, SerialSpaceThreadsAtOnce) {
  using Serial = kspmv::testing::SerialOrHostSpace;
  if constexpr (std::is_same_v<Serial, Kokkos::DefaultExecutionSpace>) {
    GTEST_SKIP() << Serial::name() << " is the default space, tested above";
  } else {
    run_or_skip<Serial>();
  }
}
