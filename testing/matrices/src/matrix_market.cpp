// A strict Matrix Market coordinate reader on zlib's gz* API (which reads plain files too).

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "kspmv/matrices/matrix_market.hpp"
#include "kspmv/matrices/parse_error.hpp"

namespace kspmv::matrices {
namespace {

// Yields the file's lines (without the line terminator) and knows the current line number.
class LineReader {
 public:
  explicit LineReader(const std::string& path)
      : path_(path), file_(gzopen(path.c_str(), "rb"), &gzclose) {
    if (!file_) throw parse_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
    gzbuffer(file_.get(), 1 << 17);
  }

  // False at a clean end of input; a damaged or truncated gzip stream raises parse_error, and so
  // does a NUL byte, which C-string line readers would silently cut the line at.
  bool next(std::string& line) {
    line.clear();
    while (begin_ < end_ || refill()) {
      const char* unread = buffer_.data() + begin_;
      const auto* newline = static_cast<const char*>(std::memchr(unread, '\n', end_ - begin_));
      const auto length = newline ? static_cast<std::size_t>(newline + 1 - unread) : end_ - begin_;
      line.append(unread, length);
      begin_ += length;
      if (newline) break;
    }
    if (line.empty()) return false;
    ++line_number_;
    if (const auto nul = line.find('\0'); nul != std::string::npos) {
      fail("a NUL byte (binary data?) at column " + std::to_string(nul + 1));
    }
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return true;
  }

  std::int64_t line_number() const { return line_number_; }
  // An empty file's problem is on its first line.
  [[noreturn]] void fail(const std::string& what) const {
    throw parse_error(path_, std::max<std::int64_t>(line_number_, 1), what);
  }

 private:
  // The stream is checked only once it stops delivering, so the lines before a damaged spot are
  // still read and the error names the line it cuts.
  bool refill() {
    const int count = gzread(file_.get(), buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (count <= 0) {
      check_stream();
      return false;
    }
    begin_ = 0;
    end_ = static_cast<std::size_t>(count);
    return true;
  }

  void check_stream() {
    int status = Z_OK;
    const char* message = gzerror(file_.get(), &status);
    if (status != Z_OK && status != Z_STREAM_END) {
      throw parse_error(path_, line_number_ + 1, std::string("unreadable input: ") + message);
    }
  }

  std::string path_;
  std::unique_ptr<gzFile_s, decltype(&gzclose)> file_;
  std::vector<char> buffer_ = std::vector<char>(1 << 16);
  std::size_t begin_ = 0;  // the unread part of buffer_
  std::size_t end_ = 0;
  std::int64_t line_number_ = 0;
};

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_blank(std::string_view line) {
  return split(line).empty();
}

template <class Number>
Number parse_number(const LineReader& in, std::string_view token, const char* what) {
  // from_chars rejects a leading '+', which Matrix Market writers sometimes emit.
  if (token.size() > 1 && token[0] == '+' && token[1] != '-') token.remove_prefix(1);
  Number value{};
  const auto [end, status] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (status == std::errc::result_out_of_range) {
    in.fail(std::string(what) + " '" + std::string(token) + "' is out of range");
  }
  if (status != std::errc() || end != token.data() + token.size()) {
    in.fail(std::string(what) + " '" + std::string(token) + "' is not a number");
  }
  return value;
}

void read_banner(LineReader& in, CoordinateMatrix& m) {
  std::string line;
  if (!in.next(line)) in.fail("empty file, expected a %%MatrixMarket banner");
  const auto tokens = split(line);
  if (tokens.empty() || lower(tokens[0]) != "%%matrixmarket") {
    in.fail("expected a %%MatrixMarket banner, found '" + line + "'");
  }
  if (tokens.size() != 5) {
    in.fail("the banner needs 4 words after %%MatrixMarket (matrix coordinate <field> <symmetry>)");
  }
  if (lower(tokens[1]) != "matrix") in.fail("object '" + std::string(tokens[1]) + "' unsupported");
  const auto format = lower(tokens[2]);
  if (format == "array") in.fail("array (dense) format is unsupported, only coordinate");
  if (format != "coordinate") in.fail("unknown format '" + std::string(tokens[2]) + "'");

  const auto field = lower(tokens[3]);
  if (field == "real" || field == "double") {
    m.field = Field::real;
  } else if (field == "integer") {
    m.field = Field::integer;
  } else if (field == "pattern") {
    m.field = Field::pattern;
  } else if (field == "complex") {
    m.field = Field::complex;
  } else {
    in.fail("unknown field '" + std::string(tokens[3]) + "'");
  }

  const auto symmetry = lower(tokens[4]);
  if (symmetry == "general") {
    m.symmetry = Symmetry::general;
  } else if (symmetry == "symmetric") {
    m.symmetry = Symmetry::symmetric;
  } else if (symmetry == "skew-symmetric") {
    m.symmetry = Symmetry::skew_symmetric;
  } else if (symmetry == "hermitian") {
    m.symmetry = Symmetry::hermitian;
  } else {
    in.fail("unknown symmetry '" + std::string(tokens[4]) + "'");
  }
  if (m.symmetry == Symmetry::hermitian && m.field != Field::complex) {
    in.fail("hermitian storage needs the complex field");
  }
  if (m.symmetry == Symmetry::skew_symmetric && m.field == Field::pattern) {
    in.fail("skew-symmetric storage cannot be a pattern");
  }
}

// Exact on platforms whose long double has a 64-bit mantissa or more; rounded in the last digits
// elsewhere, which does not matter at sizes this large.
std::string bytes_text(long double bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(0) << bytes << " bytes";
  return out.str();
}

// A size line is a promise the rest of the file may not keep, so what it claims is checked against
// the memory limit before anything is sized by it. long double, because the claim of a file that
// declares the largest counts overflows 64-bit integers.
void check_claim_fits(const LineReader& in, const CoordinateMatrix& m, std::int64_t entries,
                      std::uint64_t memory_limit) {
  const std::size_t values_per_entry = m.field == Field::complex ? 2 : 1;
  const long double entry_bytes = 2 * sizeof(std::int64_t) + values_per_entry * sizeof(double);
  const long double counter_bytes =
      (static_cast<long double>(std::max(m.num_rows, m.num_cols)) + 1) * sizeof(std::int64_t);
  const long double bytes = static_cast<long double>(entries) * entry_bytes + counter_bytes;
  if (bytes > static_cast<long double>(memory_limit)) {
    in.fail("the size line claims a " + std::to_string(m.num_rows) + " x " +
            std::to_string(m.num_cols) + " matrix with " + std::to_string(entries) +
            " entries, which needs at least " + bytes_text(bytes) + ", more than the limit of " +
            std::to_string(memory_limit) + " bytes");
  }
}

std::int64_t read_size_line(LineReader& in, CoordinateMatrix& m, std::uint64_t memory_limit) {
  std::string line;
  do {
    if (!in.next(line)) in.fail("end of file before the size line (rows columns entries)");
  } while (line.rfind('%', 0) == 0 || is_blank(line));
  const auto tokens = split(line);
  if (tokens.size() != 3) in.fail("the size line needs 3 numbers (rows columns entries)");
  m.size_line = in.line_number();
  m.num_rows = parse_number<std::int64_t>(in, tokens[0], "row count");
  m.num_cols = parse_number<std::int64_t>(in, tokens[1], "column count");
  const auto entries = parse_number<std::int64_t>(in, tokens[2], "entry count");
  if (m.num_rows < 0 || m.num_cols < 0 || entries < 0) in.fail("negative size");
  if (m.symmetry != Symmetry::general && m.num_rows != m.num_cols) {
    in.fail("symmetric storage needs a square matrix, not " + std::to_string(m.num_rows) + " x " +
            std::to_string(m.num_cols));
  }
  check_claim_fits(in, m, entries, memory_limit);
  return entries;
}

std::size_t tokens_per_entry(Field field) {
  switch (field) {
    case Field::pattern:
      return 2;
    case Field::complex:
      return 4;
    default:
      return 3;
  }
}

void read_entry(const LineReader& in, const std::vector<std::string_view>& tokens,
                CoordinateMatrix& m) {
  const auto row = parse_number<std::int64_t>(in, tokens[0], "row index");
  const auto col = parse_number<std::int64_t>(in, tokens[1], "column index");
  if (row < 1 || row > m.num_rows || col < 1 || col > m.num_cols) {
    in.fail("index (" + std::to_string(row) + ", " + std::to_string(col) + ") is outside the " +
            std::to_string(m.num_rows) + " x " + std::to_string(m.num_cols) + " matrix");
  }
  if (m.symmetry != Symmetry::general && col > row) {
    in.fail("entry (" + std::to_string(row) + ", " + std::to_string(col) +
            ") lies above the diagonal; symmetric storage holds the lower triangle");
  }
  if (m.symmetry == Symmetry::skew_symmetric && col == row) {
    in.fail("a skew-symmetric matrix has no diagonal entries");
  }
  m.rows.push_back(row - 1);
  m.cols.push_back(col - 1);
  switch (m.field) {
    case Field::pattern:
      m.real.push_back(1.0);
      break;
    case Field::integer:
      m.real.push_back(static_cast<double>(parse_number<std::int64_t>(in, tokens[2], "value")));
      break;
    case Field::real:
      m.real.push_back(parse_number<double>(in, tokens[2], "value"));
      break;
    case Field::complex:
      m.real.push_back(parse_number<double>(in, tokens[2], "real part"));
      m.imag.push_back(parse_number<double>(in, tokens[3], "imaginary part"));
      break;
  }
}

}  // namespace

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

CoordinateMatrix read_coordinates(const std::string& path, std::uint64_t memory_limit) {
  LineReader in(path);
  CoordinateMatrix m;
  m.source = path;
  read_banner(in, m);
  const std::int64_t declared = read_size_line(in, m, memory_limit);
  const std::size_t width = tokens_per_entry(m.field);
  // Reserve no more than the file could plausibly hold, so a lying header cannot exhaust memory.
  const auto reserve = static_cast<std::size_t>(std::min<std::int64_t>(declared, 1 << 24));
  m.rows.reserve(reserve);
  m.cols.reserve(reserve);
  m.real.reserve(reserve);
  if (m.field == Field::complex) m.imag.reserve(reserve);

  std::string line;
  std::int64_t read = 0;
  while (in.next(line)) {
    if (line.rfind('%', 0) == 0) continue;
    const auto tokens = split(line);
    if (tokens.empty()) continue;
    if (read == declared) {
      in.fail("more entries than the " + std::to_string(declared) + " the size line declares");
    }
    if (tokens.size() != width) {
      in.fail("expected " + std::to_string(width) + " numbers per entry, found " +
              std::to_string(tokens.size()));
    }
    read_entry(in, tokens, m);
    ++read;
  }
  if (read != declared) {
    throw parse_error(path, in.line_number(),
                      "file ends after " + std::to_string(read) + " of the " +
                          std::to_string(declared) + " entries the size line declares");
  }
  return m;
}

}  // namespace kspmv::matrices
