// The generated version header agrees with the project's version (CMakeLists.txt) and orders
// releases.

#include <gtest/gtest.h>

#include <string>

#include "kspmv/version.hpp"

TEST(Version, MacrosMatchTheProjectVersion) {
  EXPECT_EQ(std::string(KSPMV_VERSION_STRING), KSPMV_PROJECT_VERSION);
  EXPECT_EQ(std::to_string(KSPMV_VERSION_MAJOR) + "." + std::to_string(KSPMV_VERSION_MINOR) + "." +
                std::to_string(KSPMV_VERSION_PATCH),
            KSPMV_PROJECT_VERSION);
  EXPECT_EQ(KSPMV_VERSION,
            KSPMV_VERSION_MAJOR * 10000 + KSPMV_VERSION_MINOR * 100 + KSPMV_VERSION_PATCH);
  static_assert(KSPMV_VERSION >= 100, "0.1.0 was the first release");
}
