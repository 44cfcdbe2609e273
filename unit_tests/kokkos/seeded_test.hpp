#pragma once
// A fixture drawing its random inputs from a fresh seed (printed on failure by KSPMV_TRACE_SEED).

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "spmv_harness.hpp"

namespace kspmv::testing {

template <class Scalar_, class Ordinal_, class Offset_>
class SeededTest : public ::testing::Test {
 public:
  using Scalar = Scalar_;
  using Ordinal = Ordinal_;
  using Offset = Offset_;
  using HostMatrix = HostCsr<Scalar, Ordinal, Offset>;
  using DeviceMatrix = DeviceCsr<Scalar, Ordinal, Offset>;
  using HandleT = Handle<decltype(DeviceMatrix(HostMatrix()).view)>;

 protected:
  void SetUp() override {
    seed_ = fresh_seed();
    rng_.seed(seed_);
  }
  HostMatrix random(std::int64_t rows, std::int64_t cols, RowShape shape = {0, 12}) {
    return random_csr<Scalar, Ordinal, Offset>(rows, cols, shape, rng_);
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

#define KSPMV_TRACE_SEED() SCOPED_TRACE(seed_message(seed_))

}  // namespace kspmv::testing
