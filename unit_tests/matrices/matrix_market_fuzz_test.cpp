// Randomly damaged Matrix Market files: the reader either reads them or raises parse_error; it
// never crashes, hangs or throws anything else, and never reads one holding a NUL byte. The size
// line is left intact so that a mutation cannot declare a legitimately enormous matrix.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "kspmv/matrices/matrix_market.hpp"
#include "random_csr.hpp"
#include "temp_files.hpp"

namespace kspmv::matrices {
namespace {

const std::string banner_and_size =
    "%%MatrixMarket matrix coordinate real symmetric\n% comment\n6 6 8\n";
const std::string entries =
    "1 1 1.5\n2 1 -2e-3\n3 3 4\n4 2 1e+2\n5 5 .5\n6 1 -7\n6 4 3.25\n6 6 1\n";

std::string damaged(std::string text, std::mt19937_64& rng) {
  using namespace std::string_literals;  // keeps the trailing NUL byte
  const auto alphabet = "0123456789 \t\n.-+eE%xX\r\0"s;
  std::uniform_int_distribution<int> mutations(1, 4);
  for (int m = mutations(rng); m > 0 && !text.empty(); --m) {
    std::uniform_int_distribution<std::size_t> where(0, text.size() - 1);
    const std::size_t at = where(rng);
    const char c =
        alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
      case 0:
        text[at] = c;
        break;
      case 1:
        text.insert(at, 1, c);
        break;
      case 2:
        text.erase(at, 1);
        break;
      default:
        text.resize(at);
        break;
    }
  }
  return text;
}

using MatrixMarketFuzz = testing::WithScratchDirectory;

TEST_F(MatrixMarketFuzz, DamagedFilesAreReadOrRejectedNeverCrash) {
  const auto seed = kspmv::testing::fresh_seed();
  SCOPED_TRACE(kspmv::testing::seed_message(seed));
  std::mt19937_64 rng(seed);
  int rejected = 0;
  for (int i = 0; i < 500; ++i) {
    const auto text = banner_and_size + damaged(entries, rng);
    const auto path =
        i % 2 ? scratch_.write_gzip("fuzz.mtx.gz", text) : scratch_.write_text("fuzz.mtx", text);
    try {
      const auto A = read_matrix_market<double, int, int>(path);
      ASSERT_EQ(A.row_map.back(), A.num_entries()) << text;
      ASSERT_EQ(text.find('\0'), std::string::npos) << "read despite a NUL byte:\n" << text;
    } catch (const parse_error&) {
      ++rejected;
    } catch (const std::exception& e) {
      FAIL() << "unexpected " << typeid(e).name() << ": " << e.what() << "\n" << text;
    }
  }
  EXPECT_GT(rejected, 50) << "the damage hardly ever made a file invalid";
}

}  // namespace
}  // namespace kspmv::matrices
