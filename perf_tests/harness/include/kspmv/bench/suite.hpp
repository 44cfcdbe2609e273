#pragma once
// Which matrices a suite measures: the generated families at the suite's scale, or the sweep's
// shapes (--suite sweep), then the shapes of --shape (the quick suite adds one stencil larger than
// a CPU's last-level cache, so that its roofline shows a bandwidth-bound point), then Matrix
// Market files of --matrices, smallest first.

#include <optional>
#include <string>
#include <vector>

#include "kspmv/bench/options.hpp"
#include "kspmv/matrices/generators.hpp"

namespace kspmv::bench {

struct MatrixSource {
  std::string name;  // generated name or file name without .mtx[.gz]
  std::optional<matrices::GeneratorSpec> generator;  // set for generated matrices
  std::string path;                                  // set for files
};

// Throws std::invalid_argument when --matrices is not a readable directory.
std::vector<MatrixSource> suite_matrices(const Options& options);

}  // namespace kspmv::bench
