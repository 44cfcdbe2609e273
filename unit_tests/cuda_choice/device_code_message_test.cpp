// The message of kspmv::unsupported_device names the device, its compute capability, the build's
// architectures and the option that fixes it.

#include <gtest/gtest.h>

#include <string>

#include "plan/device_code.hpp"

namespace kspmv::cuda::detail {
namespace {

TEST(MissingDeviceCodeMessage, NamesTheDeviceTheBuildAndTheFix) {
  const std::string message = missing_device_code_message(1, "NVIDIA H200", 9, 0, "80-real");
  for (const char* part : {"CUDA device 1", "NVIDIA H200", "compute capability 9.0", "\"80-real\"",
                           "-DCMAKE_CUDA_ARCHITECTURES=90"}) {
    EXPECT_NE(message.find(part), std::string::npos) << part << " missing from: " << message;
  }
}

}  // namespace
}  // namespace kspmv::cuda::detail
