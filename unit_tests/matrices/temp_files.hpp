#pragma once
// Test inputs written to a directory of the test's own, plain or gzip-compressed. The directory is
// made under GoogleTest's temporary directory with a unique name and removed, with all it holds,
// when the test ends: test processes running side by side (ctest -j, two checkouts) never share or
// leave behind a file.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kspmv::matrices::testing {

class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = ::testing::TempDir() + "kspmv-test-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (mkdtemp(name.data()) == nullptr) {
      throw std::runtime_error("cannot create a scratch directory like " + pattern);
    }
    path_ = name.data();
  }
  ~ScratchDirectory() {
    std::error_code ignored;  // a destructor must not throw; a leftover directory is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

  std::string write_text(const std::string& name, const std::string& text) const {
    const auto path = file(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string write_gzip(const std::string& name, const std::string& text) const {
    const auto path = file(name);
    gzFile gz = gzopen(path.c_str(), "wb");
    EXPECT_NE(gz, nullptr) << path;
    EXPECT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
              static_cast<int>(text.size()));
    gzclose(gz);
    return path;
  }

 private:
  std::filesystem::path path_;
};

// A test whose files live in its own scratch directory.
class WithScratchDirectory : public ::testing::Test {
 protected:
  ScratchDirectory scratch_;
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace kspmv::matrices::testing
