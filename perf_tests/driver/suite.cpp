#include "suite.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace kspmv::perf {
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

}  // namespace

std::vector<MatrixSource> suite_matrices(const Options& options) {
  std::vector<MatrixSource> sources;
  for (auto family : matrices::all_families()) {
    matrices::GeneratorSpec spec{family, options.scale};
    if (options.seed != 0) spec.seed = options.seed;
    sources.push_back({matrices::make_row_generator(spec)->name(), spec, {}});
  }
  if (!options.matrix_dir.empty()) {
    for (auto& source : matrix_market_files(options)) sources.push_back(std::move(source));
  }
  return sources;
}

}  // namespace kspmv::perf
