// Every public entry point, called as an application calls it, with both matrix forms (a CrsView
// and a KokkosSparse::CrsMatrix) and both ranks. Compiling this file is half the test: Kokkos
// Kernels 4.x declares KokkosSparse::spmv templates that argument-dependent lookup finds through
// A's and the Views' namespaces, so an unqualified spmv(...) inside kspmv's headers was ambiguous
// against Kokkos Kernels 4.6.02. adl_probe makes the same trap on every Kokkos Kernels version,
// Debian's 3.4 included: a coefficient type whose namespace declares spmv templates that lookup
// would prefer to, or confuse with, kspmv's own. Any call of ours that does not say kspmv:: fails
// to compile here.

#include <gtest/gtest.h>

#include <KokkosSparse_CrsMatrix.hpp>

#include <optional>
#include <string>
#include <type_traits>

#include "spmv_harness.hpp"

namespace adl_probe {

// A coefficient an application might pass as alpha or beta: converts to double.
struct Coefficient {
  double value;
  operator double() const { return value; }
};

// Shaped like kspmv's internal calls (instance, handle, mode, ...), (instance, mode, ...) and
// (handle, mode, ...): ambiguous with the first and the last, preferred to the second, deleted
// either way.
template <class Exec, class HandlePtr, class A, class X, class Y>
void spmv(const Exec&, HandlePtr*, const char*, const Coefficient&, const A&, const X&,
          const Coefficient&, const Y&) = delete;
template <class Exec, class A, class X, class Y>
void spmv(const Exec&, const char*, const Coefficient&, const A&, const X&, const Coefficient&,
          const Y&) = delete;
template <class HandlePtr, class A, class X, class Y>
void spmv(HandlePtr*, const char*, const Coefficient&, const A&, const X&, const Coefficient&,
          const Y&) = delete;

}  // namespace adl_probe

namespace kspmv::testing {
namespace {

using Scalar = double;
using Ordinal = int;
using Offset = std::size_t;
using DeviceMatrix = DeviceCsr<Scalar, Ordinal, Offset>;
using KokkosSparseMatrix =
    KokkosSparse::CrsMatrix<Scalar, Ordinal, ExecSpace::device_type, void, Offset>;

enum class Form { CrsView, KokkosSparseCrsMatrix };
const char* to_string(Form f) {
  return f == Form::CrsView ? "CrsView" : "KokkosSparse::CrsMatrix";
}

// The four spmv overloads, kspmv::validate and kspmv::Handle on A in the given form, each call
// compared with the oracle; Rank 1 or 2; alpha and beta of type Coefficient.
template <Form F, int Rank, class Coefficient>
void check_every_overload(std::mt19937_64& rng) {
  SCOPED_TRACE(std::string(to_string(F)) + ", rank " + std::to_string(Rank));
  const std::int64_t rows = 70, cols = 50, k = Rank == 1 ? 1 : 3;
  const auto host_A = random_csr<Scalar, Ordinal, Offset>(rows, cols, RowShape{0, 12}, rng);
  const DeviceMatrix device_A(host_A);
  const auto A = [&] {
    if constexpr (F == Form::CrsView) {
      return kspmv::make_crs_view(static_cast<Ordinal>(cols), device_A.row_map, device_A.entries,
                                  device_A.values);
    } else {
      return KokkosSparseMatrix("A", static_cast<Ordinal>(rows), static_cast<Ordinal>(cols),
                                device_A.values.extent(0), device_A.values, device_A.row_map,
                                device_A.entries);
    }
  }();
  EXPECT_NO_THROW(kspmv::validate(A));

  const Coefficient alpha{-1.5}, beta{0.5};
  const auto x = random_block<Scalar>(cols, k, rng);
  const auto y = random_block<Scalar>(rows, k, rng);
  const auto expected = reference::spmv(Mode::NoTranspose, -1.5, arrays(host_A), x, 0.5, y);
  DeviceBlock<Scalar, Layout::Left, Rank> x_dev(x), y_plain(y), y_instance(y), y_handle(y),
      y_handle_only(y);

  kspmv::spmv("N", alpha, A, x_dev.view(), beta, y_plain.view());
  kspmv::spmv(ExecSpace(), "N", alpha, A, x_dev.view(), beta, y_instance.view());
  kspmv::Handle<std::remove_const_t<decltype(A)>> handle;
  EXPECT_EQ(handle.describe().rfind("not set up yet (requested Auto)", 0), 0u) << handle.describe();
  kspmv::spmv(ExecSpace(), &handle, "N", alpha, A, x_dev.view(), beta, y_handle.view());
  kspmv::spmv(&handle, "N", alpha, A, x_dev.view(), beta, y_handle_only.view());  // KK 4.x's form
  ExecSpace().fence();
  // What runs, named first: the kernel Auto chose on Kokkos::Cuda, Kokkos Kernels elsewhere.
  EXPECT_EQ(handle.describe().rfind(kspmv::to_string(handle.algorithm()), 0), 0u)
      << handle.describe();
  // Kokkos Kernels' backend keeps nothing of its own; kspmv's CUDA plan keeps its analysis.
  constexpr bool kokkos_kernels =
      std::is_same_v<kspmv::detail::backend_for_t<ExecSpace>, kspmv::kokkoskernels::Backend>;
  EXPECT_EQ(handle.workspace_bytes() == 0, kokkos_kernels);
  if (kokkos_kernels) {  // names the space it runs on and the Kokkos Kernels it calls
    EXPECT_NE(handle.describe().find(std::string(" on ") + ExecSpace::name()), std::string::npos)
        << handle.describe();
    EXPECT_NE(handle.describe().find("Kokkos Kernels "), std::string::npos) << handle.describe();
  }
  // A's bytes as the plan reads them: none of its own under Kokkos Kernels; on Kokkos::Cuda this
  // small matrix is latency-bound, so the plan reads A's own CSR arrays.
  const std::size_t csr_bytes = static_cast<std::size_t>(rows + 1) * sizeof(Offset) +
                                host_A.entries.size() * (sizeof(Ordinal) + sizeof(Scalar));
  EXPECT_EQ(handle.matrix_bytes_per_call(),
            kokkos_kernels ? std::nullopt : std::optional<std::size_t>(csr_bytes));
  EXPECT_EQ(reference::compare(expected, y_plain.download()), "") << "spmv(mode, ...)";
  EXPECT_EQ(reference::compare(expected, y_instance.download()), "") << "spmv(exec, mode, ...)";
  EXPECT_EQ(reference::compare(expected, y_handle.download()), "") << "spmv(exec, &handle, ...)";
  EXPECT_EQ(reference::compare(expected, y_handle_only.download()), "") << "spmv(&handle, ...)";
}

class PublicOverloads : public ::testing::Test {
 protected:
  void SetUp() override { rng_.seed(seed_); }
  const std::uint64_t seed_ = fresh_seed();
  std::mt19937_64 rng_;
};

TEST_F(PublicOverloads, WithDoubleCoefficients) {
  SCOPED_TRACE(seed_message(seed_));
  check_every_overload<Form::CrsView, 1, double>(rng_);
  check_every_overload<Form::CrsView, 2, double>(rng_);
  check_every_overload<Form::KokkosSparseCrsMatrix, 1, double>(rng_);
  check_every_overload<Form::KokkosSparseCrsMatrix, 2, double>(rng_);
}

TEST_F(PublicOverloads, WithCoefficientsWhoseNamespaceDeclaresSpmv) {
  SCOPED_TRACE(seed_message(seed_));
  using adl_probe::Coefficient;
  check_every_overload<Form::CrsView, 1, Coefficient>(rng_);
  check_every_overload<Form::CrsView, 2, Coefficient>(rng_);
  check_every_overload<Form::KokkosSparseCrsMatrix, 1, Coefficient>(rng_);
  check_every_overload<Form::KokkosSparseCrsMatrix, 2, Coefficient>(rng_);
}

}  // namespace
}  // namespace kspmv::testing
