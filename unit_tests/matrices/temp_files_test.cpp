// The scratch directories the Matrix Market tests write into: unique, and gone with their files.

#include <gtest/gtest.h>

#include <filesystem>

#include "temp_files.hpp"

namespace kspmv::matrices {
namespace {

TEST(ScratchDirectory, UniqueAndRemovedWithItsFiles) {
  std::filesystem::path first_path;
  std::string file;
  {
    const testing::ScratchDirectory first, second;
    EXPECT_NE(first.path(), second.path());
    first_path = first.path();
    file = first.write_gzip("a.mtx.gz", "text");
    first.write_text("b.mtx", "text");
    EXPECT_TRUE(std::filesystem::is_regular_file(file));
  }
  EXPECT_FALSE(std::filesystem::exists(first_path)) << first_path;
}

}  // namespace
}  // namespace kspmv::matrices
