#pragma once
// Deterministic generated matrices: the large families the performance targets name,
// scaled by a row-count factor so a CPU run stays short. The same spec gives bitwise the same
// matrix on every machine and for any thread count: each row draws from its own counter-based
// stream, and each value from the seed and its position.

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kspmv/matrices/host_csr.hpp"
#include "kspmv/matrices/index_fits.hpp"
#include "kspmv/matrices/is_complex.hpp"

namespace kspmv::matrices {

enum class Family {
  stencil27,     // 27-point stencil on an n^3 grid (n = 160 at full scale: 4.1M rows, 109M nnz)
  uniform_k16,   // 2M x 2M, 16 distinct random columns per row
  uniform_k100,  // 100k x 100k, 100 distinct random columns per row
  powerlaw,      // 2M x 2M, row lengths Pareto-distributed with tail index 1.5 (~15M nnz)
  shortrows,     // 20M x 20M, 1 to 4 random columns per row
  fewdense,      // 4M x 4M, 8 per row except 40 rows of 200k
  tallskinny,    // 2M x 256, 16 distinct random columns per row (least squares' shape)
  shaped,        // a chosen shape (ShapeSpec): not a family of the suites, a point of a sweep
};

inline constexpr std::uint64_t default_seed = 20261122;

// The features Auto's rules read, chosen: `rows` x `cols`, row lengths of mean `mean` spread with
// coefficient of variation `spread` (0: every row `mean` long; else lognormal, so a few rows are
// far longer), columns drawn within `reach` of the diagonal (`reach` >= `cols`: anywhere). A row
// never holds more columns than its window: lengths are clamped to it.
struct ShapeSpec {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  double mean = 0;
  double spread = 0;
  std::int64_t reach = 0;
};

struct GeneratorSpec {
  GeneratorSpec(Family generated_family = Family::stencil27, double row_scale = 1.0,
                std::uint64_t generator_seed = default_seed)
      : family(generated_family), scale(row_scale), seed(generator_seed) {}
  GeneratorSpec(const ShapeSpec& chosen, double row_scale = 1.0,
                std::uint64_t generator_seed = default_seed)
      : family(Family::shaped), scale(row_scale), seed(generator_seed), shape(chosen) {}

  Family family;
  double scale;  // fraction of the full-size row count
  std::uint64_t seed;
  ShapeSpec shape;  // Family::shaped only; scale multiplies its rows and columns
};

// "rows=R,mean=M,spread=S,reach=D[,cols=C]" (cols defaults to rows; reach "all" = anywhere), e.g.
// rows=1000000,mean=12,spread=1,reach=16384. Throws std::invalid_argument naming what is wrong.
ShapeSpec parse_shape(const std::string& text);
// The sweep of the features Auto's rules read, at `rows` x `rows`: mean row length 3, 12, 48,
// spread 0, 1, 4 and reach 256, 16384 and anywhere (27 shapes).
std::vector<ShapeSpec> sweep_shapes(std::int64_t rows);

const std::vector<Family>& all_families();
std::string family_name(Family family);
// Throws std::invalid_argument listing the known names.
Family parse_family(const std::string& name);

// A generated matrix described row by row, never stored: rows are independent, so they can be
// produced in any order on any number of threads.
class RowGenerator {
 public:
  RowGenerator(std::string name, std::int64_t num_rows, std::int64_t num_cols)
      : name_(std::move(name)), num_rows_(num_rows), num_cols_(num_cols) {}
  virtual ~RowGenerator() = default;

  // Names like the anchors' (stencil27_160, uniform_2000000_k16), carrying the scaled size.
  const std::string& name() const { return name_; }
  std::int64_t num_rows() const { return num_rows_; }
  std::int64_t num_cols() const { return num_cols_; }
  virtual std::int64_t row_length(std::int64_t row) const = 0;
  // Replaces `columns` by the row's column indices: distinct, increasing, row_length(row) of them.
  virtual void row_columns(std::int64_t row, std::vector<std::int64_t>& columns) const = 0;

 private:
  std::string name_;
  std::int64_t num_rows_;
  std::int64_t num_cols_;
};

// Throws std::invalid_argument for a scale that is not positive and finite, or a shape that is not
// a matrix.
std::unique_ptr<RowGenerator> make_row_generator(const GeneratorSpec& spec);

// The value of entry `entry` (its CSR position), part 0 (real) or 1 (imaginary): in [-1, 1).
double entry_value(std::uint64_t seed, std::int64_t entry, int part);

// Runs body(begin, end) over disjoint chunks covering [0, n) on the hardware's threads.
void parallel_chunks(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body);

template <class Scalar>
Scalar generated_value(std::uint64_t seed, std::int64_t entry) {
  if constexpr (is_complex_v<Scalar>) {
    using Real = typename Scalar::value_type;
    return {static_cast<Real>(entry_value(seed, entry, 0)),
            static_cast<Real>(entry_value(seed, entry, 1))};
  } else {
    return static_cast<Scalar>(entry_value(seed, entry, 0));
  }
}

template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> generate(const RowGenerator& rows, std::uint64_t seed) {
  HostCsr<Scalar, Ordinal, Offset> A;
  A.num_rows = rows.num_rows();
  A.num_cols = rows.num_cols();
  if (!index_fits<Ordinal>(rows.num_rows()) || !index_fits<Ordinal>(rows.num_cols())) {
    throw std::invalid_argument(rows.name() +
                                " has more rows or columns than its ordinal type holds");
  }
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(A.num_rows) + 1, 0);
  parallel_chunks(A.num_rows, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      offsets[static_cast<std::size_t>(i) + 1] = rows.row_length(i);
    }
  });
  for (std::size_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
  const std::int64_t nnz = offsets.back();
  if (!index_fits<Offset>(nnz)) {
    throw std::invalid_argument(rows.name() + " has " + std::to_string(nnz) +
                                " entries, more than its offset type holds");
  }
  A.row_map.assign(offsets.begin(), offsets.end());
  A.entries.resize(static_cast<std::size_t>(nnz));
  A.values.resize(static_cast<std::size_t>(nnz));
  parallel_chunks(A.num_rows, [&](std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t> columns;
    for (std::int64_t i = begin; i < end; ++i) {
      rows.row_columns(i, columns);
      auto e = static_cast<std::size_t>(offsets[static_cast<std::size_t>(i)]);
      for (auto c : columns) {
        A.entries[e] = static_cast<Ordinal>(c);
        A.values[e] = generated_value<Scalar>(seed, static_cast<std::int64_t>(e));
        ++e;
      }
    }
  });
  return A;
}

template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> generate(const GeneratorSpec& spec) {
  return generate<Scalar, Ordinal, Offset>(*make_row_generator(spec), spec.seed);
}

}  // namespace kspmv::matrices
