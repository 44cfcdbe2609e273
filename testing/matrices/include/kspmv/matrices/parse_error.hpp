#pragma once
// Malformed Matrix Market input (or a matrix that does not fit the requested types). The message
// starts with "file:line:" so the offending spot can be opened directly.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kspmv::matrices {

class parse_error : public std::invalid_argument {
 public:
  parse_error(const std::string& file, std::int64_t line, const std::string& what)
      : std::invalid_argument(file + ":" + std::to_string(line) + ": " + what) {}
};

}  // namespace kspmv::matrices
