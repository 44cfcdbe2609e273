#pragma once
// Test inputs written to GoogleTest's temporary directory, plain or gzip-compressed.

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>

namespace kspmv::matrices::testing {

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + name;
}

inline std::string write_text(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string write_gzip(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  gzFile file = gzopen(path.c_str(), "wb");
  EXPECT_NE(file, nullptr) << path;
  EXPECT_EQ(gzwrite(file, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  gzclose(file);
  return path;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace kspmv::matrices::testing
