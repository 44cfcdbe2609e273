#pragma once
// A whole text read as a finite number (std::stod's forms), for the parsers of options and specs
// that name what they refuse.

#include <cmath>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>

namespace kspmv::matrices {

inline std::optional<double> finite_number(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (text.empty() || used != text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace kspmv::matrices
