// A plan on a GPU the build has no code for is a kspmv::unsupported_device naming the device's
// compute capability, before any kernel runs; on a GPU the build covers, a plan is made. Which of
// the two this run expects: KSPMV_TEST_EXPECT_NO_DEVICE_CODE=1 in the environment says the build
// was compiled for other GPUs only (e.g. CMAKE_CUDA_ARCHITECTURES=80-real on a Hopper GPU).

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "device_harness.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::cuda::testing {
namespace {

TEST(CudaDeviceCode, APlanRunsOrNamesTheComputeCapabilityItLacks) {
  KSPMV_SKIP_WITHOUT_GPU();
  const char* expectation = std::getenv("KSPMV_TEST_EXPECT_NO_DEVICE_CODE");
  const bool expect_no_code = expectation != nullptr && std::string(expectation) == "1";
  const HostCsr<double, std::int32_t, std::int32_t> host{2, 2, {0, 1, 2}, {0, 1}, {1.0, 2.0}};
  const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
  const Stream stream;
  int device = 0;
  int major = 0;
  int minor = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "major");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "minor");
  const std::string capability =
      "compute capability " + std::to_string(major) + "." + std::to_string(minor);
  try {
    Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream.get());
    EXPECT_FALSE(expect_no_code) << "a plan was made on a device with " << capability
                                 << ", which this run expected the build to lack";
  } catch (const kspmv::unsupported_device& e) {
    EXPECT_TRUE(expect_no_code) << e.what();
    EXPECT_NE(std::string(e.what()).find(capability), std::string::npos) << e.what();
    std::printf("%s\n", e.what());
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
