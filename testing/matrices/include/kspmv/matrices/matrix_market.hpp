#pragma once
// Matrix Market coordinate files, plain (.mtx) or gzip-compressed (.mtx.gz; zlib reads both
// transparently). Every malformed input raises parse_error naming the file and line.
//
// memory_limit (bytes) bounds what the size line may claim: the stored entries (two 8-byte indices
// and one 8-byte value each, two values if complex) plus one 8-byte counter per row or column,
// whichever are more, for the CSR conversion. A larger claim raises parse_error at the size line
// before anything is allocated, rather than std::bad_alloc. The default is this machine's physical
// memory.

#include <cstdint>
#include <string>

#include "kspmv/matrices/coordinate_matrix.hpp"
#include "kspmv/matrices/host_csr.hpp"

namespace kspmv::matrices {

// The machine's physical memory in bytes; the largest std::uint64_t where the system does not say.
std::uint64_t physical_memory_bytes();

CoordinateMatrix read_coordinates(const std::string& path,
                                  std::uint64_t memory_limit = physical_memory_bytes());

template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> read_matrix_market(
    const std::string& path, std::uint64_t memory_limit = physical_memory_bytes()) {
  return to_csr<Scalar, Ordinal, Offset>(read_coordinates(path, memory_limit));
}

}  // namespace kspmv::matrices
