#pragma once
// Which matrices a suite measures (Kokkos-free): the generated families at the suite's scale, then
// Matrix Market files of --matrices, smallest first.

#include <optional>
#include <string>
#include <vector>

#include "kspmv/matrices/generators.hpp"
#include "options.hpp"

namespace kspmv::perf {

struct MatrixSource {
  std::string name;  // generated name or file name without .mtx[.gz]
  std::optional<matrices::GeneratorSpec> generator;  // set for generated matrices
  std::string path;                                  // set for files
};

// Throws std::invalid_argument when --matrices is not a readable directory.
std::vector<MatrixSource> suite_matrices(const Options& options);

}  // namespace kspmv::perf
