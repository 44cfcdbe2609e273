// Matrices read and distributed by Tpetra's own Matrix Market reader: the example's Laplacian
// (in the repository), and every real matrix of the directory named by the environment variable
// KSPMV_TEST_MATRICES (.mtx or .mtx.gz; CMake's KSPMV_TEST_MATRICES sets it for ctest; pattern and
// complex files are left out), each checked in every mode against CrsMatrix::apply.

#include <gtest/gtest.h>
#include <zlib.h>
#include <MatrixMarket_Tpetra.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tpetra_checks.hpp"

namespace kspmv::tpetra::testing {
namespace {

namespace fs = std::filesystem;

// A .mtx.gz as a plain .mtx in the temporary directory (Tpetra's reader reads plain files only);
// a .mtx as it is.
std::string plain_file(const fs::path& path) {
  if (path.extension() != ".gz") return path.string();
  const fs::path plain =
      fs::temp_directory_path() /
      ("kspmv_tpetra_" + std::to_string(comm()->getRank()) + "_" + path.stem().string());
  gzFile in = gzopen(path.c_str(), "rb");
  if (in == nullptr) throw std::runtime_error("cannot open " + path.string());
  std::ofstream out(plain, std::ios::binary);
  std::vector<char> buffer(1 << 16);
  for (int n = 0; (n = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0;) {
    out.write(buffer.data(), n);
  }
  gzclose(in);
  return plain.string();
}

// Real or integer values: Tpetra's reader refuses a pattern file for a CrsMatrix, and a complex
// one needs a complex Scalar.
bool has_real_values(const std::string& plain) {
  std::ifstream in(plain);
  std::string banner;
  std::getline(in, banner);
  return banner.find(" real ") != std::string::npos ||
         banner.find(" integer ") != std::string::npos;
}

// False for a file left out (pattern or complex).
bool expect_read_matrix_equivalent(const fs::path& path) {
  SCOPED_TRACE(path.string());
  const std::string plain = plain_file(path);
  const bool real = has_real_values(plain);
  Teuchos::RCP<const Matrix> A;
  if (real) A = Tpetra::MatrixMarket::Reader<Matrix>::readSparseFile(plain, comm());
  if (plain != path.string()) fs::remove(plain);
  if (real) expect_equivalent(A, shared_seed());
  return real;
}

TEST(TpetraMatrixMarket, ExampleLaplacian) {
  expect_read_matrix_equivalent(fs::path(KSPMV_SOURCE_DIR) / "examples/tpetra/laplacian_12x12.mtx");
}

TEST(TpetraMatrixMarket, EveryRealMatrixOfTheCollection) {
  const char* directory = std::getenv("KSPMV_TEST_MATRICES");
  if (directory == nullptr || !fs::is_directory(directory)) {
    GTEST_SKIP() << "KSPMV_TEST_MATRICES names no directory of Matrix Market files";
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 4 && (name.find(".mtx") != std::string::npos)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << directory << " holds no .mtx or .mtx.gz file";
  int checked = 0;
  for (const auto& file : files) checked += expect_read_matrix_equivalent(file) ? 1 : 0;
  if (comm()->getRank() == 0) {
    std::cout << checked << " of " << files.size() << " files checked (the others are pattern or "
              << "complex matrices)" << std::endl;
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace kspmv::tpetra::testing
