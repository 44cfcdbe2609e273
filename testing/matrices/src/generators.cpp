#include "kspmv/matrices/generators.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kspmv/matrices/finite_number.hpp"

namespace kspmv::matrices {
namespace {

std::uint64_t mix(std::uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
constexpr std::uint64_t golden = 0x9E3779B97F4A7C15ull;
constexpr double kPi = 3.14159265358979323846;

// A splitmix64 stream of its own for every (seed, row): rows need no shared state.
class RowStream {
 public:
  RowStream(std::uint64_t seed, std::int64_t row)
      : state_(mix(seed ^ mix(static_cast<std::uint64_t>(row) * golden + 1))) {}
  std::uint64_t next() { return mix(state_ += golden); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)
  std::int64_t below(std::int64_t n) {
    return std::min(n - 1, static_cast<std::int64_t>(unit() * static_cast<double>(n)));
  }

 private:
  std::uint64_t state_;
};

// `count` distinct columns of [0, num_cols) in increasing order.
void distinct_columns(RowStream& rng, std::int64_t count, std::int64_t num_cols,
                      std::vector<std::int64_t>& columns) {
  columns.clear();
  if (2 * count > num_cols) {
    // Dense rows: selection sampling (Knuth's algorithm S) visits every column once.
    for (std::int64_t c = 0; c < num_cols && std::int64_t(columns.size()) < count; ++c) {
      const auto needed = count - static_cast<std::int64_t>(columns.size());
      if (rng.below(num_cols - c) < needed) columns.push_back(c);
    }
    return;
  }
  // Sparse rows: draw, sort, drop repeats, draw again for what is missing.
  while (static_cast<std::int64_t>(columns.size()) < count) {
    for (auto missing = count - static_cast<std::int64_t>(columns.size()); missing > 0; --missing) {
      columns.push_back(rng.below(num_cols));
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  }
}

std::int64_t scaled(std::int64_t full, double scale) {
  return std::max<std::int64_t>(1, std::llround(static_cast<double>(full) * scale));
}

class Stencil27 : public RowGenerator {
 public:
  explicit Stencil27(std::int64_t n)
      : RowGenerator("stencil27_" + std::to_string(n), n * n * n, n * n * n), n_(n) {}
  std::int64_t row_length(std::int64_t row) const override {
    std::int64_t length = 1;
    for (auto coordinate : coordinates(row)) length *= span(coordinate);
    return length;
  }
  void row_columns(std::int64_t row, std::vector<std::int64_t>& columns) const override {
    columns.clear();
    const auto [x, y, z] = coordinates(row);
    // z outermost, x innermost: the columns come out increasing.
    for (auto k = std::max<std::int64_t>(z - 1, 0); k <= std::min(z + 1, n_ - 1); ++k) {
      for (auto j = std::max<std::int64_t>(y - 1, 0); j <= std::min(y + 1, n_ - 1); ++j) {
        for (auto i = std::max<std::int64_t>(x - 1, 0); i <= std::min(x + 1, n_ - 1); ++i) {
          columns.push_back((k * n_ + j) * n_ + i);
        }
      }
    }
  }

 private:
  std::array<std::int64_t, 3> coordinates(std::int64_t row) const {
    return {row % n_, (row / n_) % n_, row / (n_ * n_)};
  }
  std::int64_t span(std::int64_t coordinate) const {
    return 1 + (coordinate > 0 ? 1 : 0) + (coordinate < n_ - 1 ? 1 : 0);
  }
  std::int64_t n_;
};

// Rows of random distinct columns; only the length distribution differs between families.
class RandomRows : public RowGenerator {
 public:
  RandomRows(std::string name, std::int64_t num_rows, std::int64_t num_cols, std::uint64_t seed)
      : RowGenerator(std::move(name), num_rows, num_cols), seed_(seed) {}
  std::int64_t row_length(std::int64_t row) const override {
    RowStream rng(seed_, row);
    return std::min(num_cols(), draw_length(row, rng));
  }
  void row_columns(std::int64_t row, std::vector<std::int64_t>& columns) const override {
    RowStream rng(seed_, row);
    distinct_columns(rng, std::min(num_cols(), draw_length(row, rng)), num_cols(), columns);
  }

 protected:
  virtual std::int64_t draw_length(std::int64_t row, RowStream& rng) const = 0;

 private:
  std::uint64_t seed_;
};

class FixedLength : public RandomRows {
 public:
  FixedLength(std::int64_t n, std::int64_t length, std::uint64_t seed)
      : FixedLength("uniform_" + std::to_string(n) + "_k" + std::to_string(length), n, n, length,
                    seed) {}
  FixedLength(std::string name, std::int64_t num_rows, std::int64_t num_cols, std::int64_t length,
              std::uint64_t seed)
      : RandomRows(std::move(name), num_rows, num_cols, seed), length_(length) {}

 private:
  std::int64_t draw_length(std::int64_t, RowStream&) const override { return length_; }
  std::int64_t length_;
};

class PowerLaw : public RandomRows {
 public:
  // A smallest length of 2.33 puts the mean near 7.5 per row (15M nnz over 2M rows, as the anchor).
  PowerLaw(std::int64_t n, std::uint64_t seed)
      : RandomRows("powerlaw_" + std::to_string(n) + "_a1.5", n, n, seed) {}

 private:
  std::int64_t draw_length(std::int64_t, RowStream& rng) const override {
    const double u = 1.0 - rng.unit();  // (0, 1]
    const double length = std::ceil(min_length * std::pow(u, -1.0 / tail_index));
    return static_cast<std::int64_t>(std::min(length, static_cast<double>(num_cols())));
  }
  static constexpr double tail_index = 1.5;
  static constexpr double min_length = 2.33;
};

class ShortRows : public RandomRows {
 public:
  ShortRows(std::int64_t n, std::uint64_t seed)
      : RandomRows("shortrows_" + std::to_string(n), n, n, seed) {}

 private:
  std::int64_t draw_length(std::int64_t, RowStream& rng) const override { return 1 + rng.below(4); }
};

class FewDense : public RandomRows {
 public:
  FewDense(std::int64_t n, std::int64_t dense_length, std::uint64_t seed)
      : RandomRows("fewdense_" + std::to_string(n), n, n, seed),
        dense_rows_(std::min<std::int64_t>(40, n)),
        spacing_(n / dense_rows_),
        dense_length_(std::max<std::int64_t>(dense_length, sparse_length)) {}

 private:
  std::int64_t draw_length(std::int64_t row, RowStream&) const override {
    const bool dense = row % spacing_ == 0 && row / spacing_ < dense_rows_;
    return dense ? dense_length_ : sparse_length;
  }
  static constexpr std::int64_t sparse_length = 8;
  std::int64_t dense_rows_;
  std::int64_t spacing_;
  std::int64_t dense_length_;
};

// Rows of a chosen shape: lognormal lengths of the given mean and coefficient of variation
// (rounded at random to whole entries, so the mean holds), columns in a window around the diagonal.
class Shaped : public RowGenerator {
 public:
  Shaped(const ShapeSpec& shape, std::uint64_t seed)
      : RowGenerator(name_of(shape), shape.rows, shape.cols),
        shape_(shape),
        seed_(seed),
        sigma_(std::sqrt(std::log1p(shape.spread * shape.spread))),
        mu_(std::log(shape.mean) - sigma_ * sigma_ / 2) {}

  std::int64_t row_length(std::int64_t row) const override {
    RowStream rng(seed_, row);
    const auto [begin, end] = window(row);
    return std::min(end - begin, draw_length(rng));
  }
  void row_columns(std::int64_t row, std::vector<std::int64_t>& columns) const override {
    RowStream rng(seed_, row);
    const auto [begin, end] = window(row);
    distinct_columns(rng, std::min(end - begin, draw_length(rng)), end - begin, columns);
    for (auto& column : columns) column += begin;
  }

 private:
  static std::string name_of(const ShapeSpec& shape) {
    std::ostringstream name;
    name << "shape_" << shape.rows << "x" << shape.cols << "_m" << shape.mean << "_s"
         << shape.spread << "_r";
    if (shape.reach >= shape.cols) {
      name << "all";
    } else {
      name << shape.reach;
    }
    return name.str();
  }
  std::int64_t draw_length(RowStream& rng) const {
    double length = shape_.mean;
    if (shape_.spread > 0) {
      const double u = 1.0 - rng.unit();  // (0, 1]
      const double normal = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * kPi * rng.unit());
      // A row never holds more than the columns (and a far tail must not overflow the cast).
      length = std::min(std::exp(mu_ + sigma_ * normal), static_cast<double>(shape_.cols));
    }
    const double whole = std::floor(length);
    return static_cast<std::int64_t>(whole) + (rng.unit() < length - whole ? 1 : 0);
  }
  // [begin, end) of the columns row `row` draws from: within reach of its diagonal position.
  std::pair<std::int64_t, std::int64_t> window(std::int64_t row) const {
    if (shape_.reach >= shape_.cols) return {0, shape_.cols};
    const std::int64_t diagonal =
        static_cast<std::int64_t>(static_cast<double>(row) * static_cast<double>(shape_.cols) /
                                  static_cast<double>(shape_.rows));
    return {std::max<std::int64_t>(0, diagonal - shape_.reach),
            std::min(shape_.cols, diagonal + shape_.reach + 1)};
  }

  ShapeSpec shape_;
  std::uint64_t seed_;
  double sigma_;
  double mu_;
};

void check_shape(const ShapeSpec& shape) {
  std::ostringstream problem;
  if (shape.rows < 1 || shape.cols < 1) {
    problem << "a shape needs at least one row and one column, not " << shape.rows << " x "
            << shape.cols;
  } else if (!(shape.mean > 0) || shape.mean > static_cast<double>(shape.cols)) {
    problem << "a shape's mean row length must be in (0, cols = " << shape.cols << "], not "
            << shape.mean;
  } else if (!(shape.spread >= 0) || !std::isfinite(shape.spread)) {
    problem << "a shape's spread must be finite and at least 0, not " << shape.spread;
  } else if (shape.reach < 0) {
    problem << "a shape's reach must be at least 0, not " << shape.reach;
  } else {
    return;
  }
  throw std::invalid_argument(problem.str());
}

}  // namespace

ShapeSpec parse_shape(const std::string& text) {
  ShapeSpec shape;
  bool cols_given = false;
  bool reach_all = false;
  std::vector<std::string> missing{"rows", "mean", "spread", "reach"};
  std::istringstream fields(text);
  for (std::string field; std::getline(fields, field, ',');) {
    const auto equals = field.find('=');
    const std::string key = field.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : field.substr(equals + 1);
    const auto number = [&] {
      const auto parsed = finite_number(value);
      if (!parsed) {
        throw std::invalid_argument("shape '" + text + "': " + key + "=" + value +
                                    " is not a number");
      }
      return *parsed;
    };
    const auto count = [&] {
      const double parsed = number();
      if (std::abs(parsed) > 1e15) {
        throw std::invalid_argument("shape '" + text + "': " + key + "=" + value + " is too large");
      }
      return std::llround(parsed);
    };
    if (key == "rows") {
      shape.rows = count();
    } else if (key == "cols") {
      shape.cols = count();
      cols_given = true;
    } else if (key == "mean") {
      shape.mean = number();
    } else if (key == "spread") {
      shape.spread = number();
    } else if (key == "reach") {
      reach_all = value == "all";
      if (!reach_all) shape.reach = count();
    } else {
      throw std::invalid_argument("shape '" + text + "': unknown field '" + key +
                                  "'; known: rows, cols, mean, spread, reach");
    }
    missing.erase(std::remove(missing.begin(), missing.end(), key), missing.end());
  }
  if (!missing.empty()) {
    throw std::invalid_argument("shape '" + text + "' lacks " + missing.front() + "=");
  }
  if (!cols_given) shape.cols = shape.rows;
  if (reach_all) shape.reach = shape.cols;
  check_shape(shape);
  return shape;
}

std::vector<ShapeSpec> sweep_shapes(std::int64_t rows) {
  std::vector<ShapeSpec> shapes;
  for (const double mean : {3.0, 12.0, 48.0}) {
    for (const double spread : {0.0, 1.0, 4.0}) {
      for (const std::int64_t reach : {std::int64_t{256}, std::int64_t{16384}, rows}) {
        shapes.push_back({rows, rows, mean, spread, reach});
      }
    }
  }
  return shapes;
}

const std::vector<Family>& all_families() {
  static const std::vector<Family> families{
      Family::stencil27, Family::uniform_k16, Family::uniform_k100, Family::powerlaw,
      Family::shortrows, Family::fewdense,    Family::tallskinny};
  return families;
}

std::string family_name(Family family) {
  switch (family) {
    case Family::stencil27:
      return "stencil27";
    case Family::uniform_k16:
      return "uniform_k16";
    case Family::uniform_k100:
      return "uniform_k100";
    case Family::powerlaw:
      return "powerlaw";
    case Family::shortrows:
      return "shortrows";
    case Family::fewdense:
      return "fewdense";
    case Family::tallskinny:
      return "tallskinny";
    case Family::shaped:
      return "shaped";
  }
  throw std::invalid_argument("unknown generator family");
}

Family parse_family(const std::string& name) {
  std::ostringstream known;
  for (auto family : all_families()) {
    if (family_name(family) == name) return family;
    known << ' ' << family_name(family);
  }
  throw std::invalid_argument("unknown generator family '" + name + "'; known:" + known.str());
}

std::unique_ptr<RowGenerator> make_row_generator(const GeneratorSpec& spec) {
  if (!(spec.scale > 0) || !std::isfinite(spec.scale)) {
    throw std::invalid_argument("generator scale must be positive and finite, not " +
                                std::to_string(spec.scale));
  }
  const double s = spec.scale;
  switch (spec.family) {
    case Family::stencil27:
      return std::make_unique<Stencil27>(scaled(160, std::cbrt(s)));
    case Family::uniform_k16:
      return std::make_unique<FixedLength>(scaled(2000000, s), 16, spec.seed);
    case Family::uniform_k100:
      return std::make_unique<FixedLength>(scaled(100000, s), 100, spec.seed);
    case Family::powerlaw:
      return std::make_unique<PowerLaw>(scaled(2000000, s), spec.seed);
    case Family::shortrows:
      return std::make_unique<ShortRows>(scaled(20000000, s), spec.seed);
    case Family::fewdense:
      return std::make_unique<FewDense>(scaled(4000000, s), scaled(200000, s), spec.seed);
    case Family::shaped: {
      ShapeSpec shape = spec.shape;
      const bool anywhere = shape.reach >= shape.cols;
      shape.rows = scaled(shape.rows, s);
      shape.cols = scaled(shape.cols, s);
      shape.mean = std::min(shape.mean, static_cast<double>(shape.cols));
      if (anywhere) shape.reach = shape.cols;
      check_shape(shape);
      return std::make_unique<Shaped>(shape, spec.seed);
    }
    case Family::tallskinny: {
      // The columns stay at a few hundred at every scale: the shape is the point.
      const std::int64_t rows = scaled(2000000, s);
      constexpr std::int64_t cols = 256;
      constexpr std::int64_t length = 16;
      return std::make_unique<FixedLength>("tallskinny_" + std::to_string(rows) + "x" +
                                               std::to_string(cols) + "_k" + std::to_string(length),
                                           rows, cols, length, spec.seed);
    }
  }
  throw std::invalid_argument("unknown generator family");
}

double entry_value(std::uint64_t seed, std::int64_t entry, int part) {
  const auto bits = mix(mix(seed + golden * static_cast<std::uint64_t>(part + 1)) ^
                        (static_cast<std::uint64_t>(entry) * golden));
  return static_cast<double>(bits >> 11) * 0x1p-52 - 1.0;
}

void parallel_chunks(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body) {
  const auto threads = std::max<std::int64_t>(
      1, std::min<std::int64_t>(std::thread::hardware_concurrency(), n / 4096));
  std::vector<std::thread> workers;
  for (std::int64_t t = 1; t < threads; ++t) {
    workers.emplace_back(body, n * t / threads, n * (t + 1) / threads);
  }
  body(0, n / threads);
  for (auto& w : workers) w.join();
}

}  // namespace kspmv::matrices
