#include "kspmv/bench/suite.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace kspmv::bench {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> matrix_market_name(const fs::path& path) {
  const std::string file = path.filename().string();
  for (const std::string suffix : {".mtx.gz", ".mtx"}) {
    if (file.size() > suffix.size() &&
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return file.substr(0, file.size() - suffix.size());
    }
  }
  return std::nullopt;
}

std::vector<MatrixSource> matrix_market_files(const Options& options) {
  std::error_code error;
  if (!fs::is_directory(options.matrix_dir, error)) {
    throw std::invalid_argument("--matrices " + options.matrix_dir + " is not a directory");
  }
  std::vector<std::pair<std::uintmax_t, MatrixSource>> found;
  for (const auto& entry : fs::directory_iterator(options.matrix_dir)) {
    const auto name = matrix_market_name(entry.path());
    if (!name || !entry.is_regular_file()) continue;
    found.push_back({entry.file_size(), MatrixSource{*name, std::nullopt, entry.path().string()}});
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.name < b.second.name;
  });
  if (found.size() > static_cast<std::size_t>(options.max_real_matrices)) {
    found.resize(static_cast<std::size_t>(options.max_real_matrices));
  }
  std::vector<MatrixSource> sources;
  for (auto& f : found) sources.push_back(std::move(f.second));
  return sources;
}

// The quick suite's bandwidth-bound record: a 27-point stencil of 11M entries, 131 MB in fp64 and
// 88 MB in fp32, above the 32 MB last-level cache of the CI machine class (and the 50 MB L2 of an
// H100), at about 13 ms a call on one core.
constexpr double bandwidth_bound_stencil_scale = 0.1;

MatrixSource generated(matrices::GeneratorSpec spec, const Options& options) {
  if (options.seed != 0) spec.seed = options.seed;
  return {matrices::make_row_generator(spec)->name(), spec, {}};
}

// The sweep's shapes at scale 1: a million rows, so that at the longer mean lengths A is far
// larger than a GPU's L2 (48M entries, 576 MB in fp64, against an H100's 50 MB) and at the
// shortest still above a launch's worth of work (3M entries).
constexpr std::int64_t sweep_rows = 1000000;

}  // namespace

std::vector<MatrixSource> suite_matrices(const Options& options) {
  std::vector<MatrixSource> sources;
  if (options.suite == "sweep") {
    for (const auto& shape : matrices::sweep_shapes(sweep_rows))
      sources.push_back(generated({shape, options.scale}, options));
  } else {
    for (auto family : matrices::all_families())
      sources.push_back(generated({family, options.scale}, options));
  }
  for (const auto& shape : options.shapes) sources.push_back(generated({shape}, options));
  if (options.suite == "quick" && options.scale < bandwidth_bound_stencil_scale) {
    sources.push_back(
        generated({matrices::Family::stencil27, bandwidth_bound_stencil_scale}, options));
  }
  if (!options.matrix_dir.empty()) {
    for (auto& source : matrix_market_files(options)) sources.push_back(std::move(source));
  }
  // A generated name says all of its matrix: one that appears twice (the sweep's reaches meet
  // once a small scale leaves fewer columns than they span, or --shape repeats one) is measured
  // once.
  std::set<std::string> seen;
  sources.erase(std::remove_if(sources.begin(), sources.end(),
                               [&](const MatrixSource& source) {
                                 return source.generator && !seen.insert(source.name).second;
                               }),
                sources.end());
  return sources;
}

}  // namespace kspmv::bench
