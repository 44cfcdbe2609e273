// libFuzzer's entry: the input, as a file, read by the Matrix Market reader into coordinates and
// into CSR in the types the suite uses. The reader must read it or raise parse_error: anything else
// (a crash, a sanitizer report, another exception, a hang) is a finding. The size line may claim at
// most 64 MB, so that a mutated count is refused, not allocated.

#include <unistd.h>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kspmv/matrices/matrix_market.hpp"
#include "kspmv/matrices/parse_error.hpp"

namespace {

constexpr std::uint64_t kMemoryLimit = 64u << 20;

// One scratch file for the process, rewritten for each input (the reader takes a path).
const std::string& scratch_path() {
  static const std::string path = [] {
    char name[] = "/tmp/kspmv_fuzz_XXXXXX";
    const int fd = mkstemp(name);
    if (fd < 0) std::abort();
    close(fd);
    return std::string(name);
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = scratch_path();
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  try {
    using namespace kspmv::matrices;
    const CoordinateMatrix coordinates = read_coordinates(path, kMemoryLimit);
    if (coordinates.field == Field::complex) {
      (void)to_csr<std::complex<double>, int, int>(coordinates);
    } else {
      (void)to_csr<double, int, int>(coordinates);
      (void)to_csr<float, std::int64_t, std::size_t>(coordinates);
    }
  } catch (const kspmv::matrices::parse_error&) {
  }
  return 0;
}
