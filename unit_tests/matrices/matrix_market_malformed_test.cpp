// Every malformed input raises parse_error (a std::invalid_argument) naming file:line.

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <ostream>
#include <string>

#include "kspmv/matrices/matrix_market.hpp"
#include "temp_files.hpp"

namespace kspmv::matrices {
namespace {

using namespace std::string_literals;  // "...\0..."s keeps the NUL bytes
using testing::read_bytes;
using MalformedFile = testing::WithScratchDirectory;

// Reads `path` expecting a parse_error whose message starts with "path:line:" and contains
// `fragment`.
template <class Scalar = double, class Ordinal = int, class Offset = int>
void expect_parse_error(const std::string& path, std::int64_t line, const std::string& fragment,
                        std::uint64_t memory_limit = physical_memory_bytes()) {
  try {
    read_matrix_market<Scalar, Ordinal, Offset>(path, memory_limit);
    ADD_FAILURE() << "no error reading " << path;
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(dynamic_cast<const parse_error*>(&e), nullptr) << message;
    EXPECT_EQ(message.rfind(path + ":" + std::to_string(line) + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

struct Malformed {
  std::string name;
  std::string text;
  std::int64_t line;
  std::string fragment;
};

void PrintTo(const Malformed& c, std::ostream* os) {
  *os << c.name;
}

const std::string general = "%%MatrixMarket matrix coordinate real general\n";

class MalformedText : public ::testing::TestWithParam<Malformed> {
 protected:
  testing::ScratchDirectory scratch_;
};

TEST_P(MalformedText, NamesFileAndLine) {
  const auto& c = GetParam();
  expect_parse_error(scratch_.write_text(c.name + ".mtx", c.text), c.line, c.fragment);
  expect_parse_error(scratch_.write_gzip(c.name + ".mtx.gz", c.text), c.line, c.fragment);
}

INSTANTIATE_TEST_SUITE_P(
    Reader, MalformedText,
    ::testing::Values(
        Malformed{"empty_file", "", 1, "empty file"},
        Malformed{"not_matrix_market", "#!/bin/sh\necho hi\n", 1, "expected a %%MatrixMarket"},
        Malformed{"misspelt_banner", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n", 1,
                  "expected a %%MatrixMarket"},
        Malformed{"short_banner", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1,
                  "needs 4 words"},
        Malformed{"vector_object", "%%MatrixMarket vector coordinate real general\n", 1,
                  "object 'vector' unsupported"},
        Malformed{"array_format", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1,
                  "array (dense) format is unsupported"},
        Malformed{"unknown_format", "%%MatrixMarket matrix sparse real general\n", 1,
                  "unknown format"},
        Malformed{"unknown_field", "%%MatrixMarket matrix coordinate quaternion general\n", 1,
                  "unknown field"},
        Malformed{"unknown_symmetry", "%%MatrixMarket matrix coordinate real upper\n", 1,
                  "unknown symmetry"},
        Malformed{"hermitian_real", "%%MatrixMarket matrix coordinate real hermitian\n", 1,
                  "hermitian storage needs the complex field"},
        Malformed{"skew_pattern", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n", 1,
                  "cannot be a pattern"},
        Malformed{"no_size_line", general + "% only comments\n\n", 3, "before the size line"},
        Malformed{"size_two_numbers", general + "3 3\n", 2, "needs 3 numbers"},
        Malformed{"size_four_numbers", general + "3 3 1 1\n1 1 1\n", 2, "needs 3 numbers"},
        Malformed{"size_not_numeric", general + "3 x 1\n1 1 1\n", 2,
                  "column count 'x' is not a number"},
        Malformed{"size_negative", general + "3 -3 1\n", 2, "negative size"},
        Malformed{"size_negative_rows", general + "-3 3 1\n1 1 1\n", 2, "negative size"},
        Malformed{"size_negative_entries", general + "3 3 -1\n", 2, "negative size"},
        Malformed{"size_overflow", general + "99999999999999999999 3 1\n", 2, "out of range"},
        Malformed{"symmetric_not_square",
                  "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", 2,
                  "needs a square matrix"},
        Malformed{"fewer_entries", general + "3 3 3\n1 1 1\n2 2 2\n", 4,
                  "after 2 of the 3 entries"},
        Malformed{"no_entries", general + "3 3 1\n", 2, "after 0 of the 1 entries"},
        Malformed{"truncated_entry", general + "3 3 2\n1 1 1\n2 2", 4,
                  "expected 3 numbers per entry, found 2"},
        Malformed{"more_entries", general + "3 3 1\n1 1 1\n2 2 2\n", 4, "more entries than the 1"},
        Malformed{"row_zero", general + "3 3 1\n0 1 1\n", 3,
                  "index (0, 1) is outside the 3 x 3 matrix"},
        Malformed{"row_too_large", general + "3 3 2\n1 1 1\n4 1 1\n", 4, "index (4, 1) is outside"},
        Malformed{"column_too_large", general + "3 2 1\n1 3 1\n", 3,
                  "index (1, 3) is outside the 3 x 2"},
        Malformed{"negative_index", general + "3 3 1\n-1 1 1\n", 3, "is outside"},
        Malformed{"index_not_numeric", general + "3 3 1\n1 b 1\n", 3,
                  "column index 'b' is not a number"},
        Malformed{"index_fractional", general + "3 3 1\n1.5 1 1\n", 3,
                  "row index '1.5' is not a number"},
        Malformed{"value_not_numeric", general + "3 3 1\n1 1 1.0x\n", 3,
                  "value '1.0x' is not a number"},
        Malformed{"value_fortran_exponent", general + "3 3 1\n1 1 1.0D+00\n", 3, "is not a number"},
        Malformed{"value_missing", general + "3 3 1\n1 1\n", 3,
                  "expected 3 numbers per entry, found 2"},
        Malformed{"value_extra", general + "3 3 1\n1 1 1 1\n", 3,
                  "expected 3 numbers per entry, found 4"},
        Malformed{"integer_fractional",
                  "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 2.5\n", 3,
                  "value '2.5' is not a number"},
        Malformed{"pattern_with_value",
                  "%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1 2\n", 3,
                  "expected 2 numbers per entry, found 3"},
        Malformed{"complex_one_part",
                  "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 2\n", 3,
                  "expected 4 numbers per entry, found 3"},
        Malformed{"symmetric_upper_entry",
                  "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", 3,
                  "above the diagonal"},
        Malformed{"skew_diagonal",
                  "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 2 1\n", 3,
                  "no diagonal entries"},
        Malformed{"nul_in_banner", "%%MatrixMarket matrix coordinate real general\0\n1 1 0\n"s, 1,
                  "a NUL byte (binary data?) at column 46"},
        Malformed{"nul_in_size_line", general + "% comment\n1 1\0 1\n1 1 1\n"s, 3, "a NUL byte"},
        Malformed{"nul_in_entry", general + "1 1 1\n1 1 1\0\n.5\n"s, 3,
                  "a NUL byte (binary data?) at column 6"},
        Malformed{"nul_after_last_line", general + "1 1 1\n1 1 1\n\0"s, 4, "a NUL byte"}),
    [](const ::testing::TestParamInfo<Malformed>& param) { return param.param.name; });

const std::string good_text =
    "%%MatrixMarket matrix coordinate real general\n"
    "% padding so the compressed stream is long enough to cut in the middle\n"
    "4 4 4\n1 1 1.0\n2 2 2.0\n3 3 3.0\n4 4 4.0\n";

TEST_F(MalformedFile, TruncatedGzipStream) {
  const auto whole = read_bytes(scratch_.write_gzip("whole.mtx.gz", good_text));
  const auto path = scratch_.write_text("truncated.mtx.gz", whole.substr(0, whole.size() * 2 / 3));
  try {
    read_matrix_market<double, int, int>(path);
    FAIL() << "no error reading " << path;
  } catch (const parse_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":", 0), 0u) << e.what();
  }
}

TEST_F(MalformedFile, CorruptGzipStream) {
  auto bytes = read_bytes(scratch_.write_gzip("intact.mtx.gz", good_text));
  for (std::size_t i = 12; i < bytes.size() - 8; ++i) bytes[i] = static_cast<char>(0xA5 ^ i);
  const auto path = scratch_.write_text("corrupt.mtx.gz", bytes);
  try {
    read_matrix_market<double, int, int>(path);
    FAIL() << "no error reading " << path;
  } catch (const parse_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":", 0), 0u) << e.what();
  }
}

TEST_F(MalformedFile, MissingFile) {
  const auto path = scratch_.file("does_not_exist.mtx");
  EXPECT_THROW((read_matrix_market<double, int, int>(path)), parse_error);
}

TEST_F(MalformedFile, ComplexIntoRealScalar) {
  const auto path = scratch_.write_text(
      "complex_to_real.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n");
  expect_parse_error<double>(path, 1, "complex");
}

TEST_F(MalformedFile, DimensionsBeyondTheOrdinalType) {
  const auto path = scratch_.write_text("wide.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "% comment\n40000 2 1\n40000 1 1\n");
  expect_parse_error<double, std::int16_t, int>(path, 3, "row count 40000 does not fit");
}

TEST_F(MalformedFile, EntriesBeyondTheOffsetType) {
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n1 200 200\n";
  for (int c = 1; c <= 200; ++c) text += "1 " + std::to_string(c) + "\n";
  expect_parse_error<double, int, std::int8_t>(scratch_.write_text("many.mtx", text), 2,
                                               "entry count 200 does not fit");
}

TEST_F(MalformedFile, SizeLineClaimingMoreThanMemory) {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n% comment\n";
  expect_parse_error<double, std::int64_t, std::int64_t>(
      scratch_.write_text("many_entries.mtx", banner + "1000 1000 1000000000000000\n1 1 1\n"), 3,
      "claims a 1000 x 1000 matrix with 1000000000000000 entries, which needs at least "
      "24000000000008008 bytes, more than the limit of");
  expect_parse_error<double, std::int64_t, std::int64_t>(
      scratch_.write_text("many_rows.mtx", banner + "1000000000000000 1000000000000000 1\n1 1 1\n"),
      3,
      "claims a 1000000000000000 x 1000000000000000 matrix with 1 entries, which needs at least "
      "8000000000000032 bytes");
}

// Three entries of 24 bytes and four 8-byte row counters: 104 bytes.
TEST_F(MalformedFile, MemoryLimitSetByTheCaller) {
  const auto path = scratch_.write_text("small.mtx", general + "3 3 3\n1 1 1\n2 2 2\n3 3 3\n");
  expect_parse_error(path, 2, "which needs at least 104 bytes, more than the limit of 103 bytes",
                     103);
  EXPECT_EQ((read_matrix_market<double, int, int>(path, 104).num_entries()), 3);
}

}  // namespace
}  // namespace kspmv::matrices
