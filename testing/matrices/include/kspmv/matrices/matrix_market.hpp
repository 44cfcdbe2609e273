#pragma once
// Matrix Market coordinate files, plain (.mtx) or gzip-compressed (.mtx.gz; zlib reads both
// transparently). Every malformed input raises parse_error naming the file and line.

#include <string>

#include "kspmv/matrices/coordinate_matrix.hpp"
#include "kspmv/matrices/host_csr.hpp"

namespace kspmv::matrices {

CoordinateMatrix read_coordinates(const std::string& path);

template <class Scalar, class Ordinal, class Offset>
HostCsr<Scalar, Ordinal, Offset> read_matrix_market(const std::string& path) {
  return to_csr<Scalar, Ordinal, Offset>(read_coordinates(path));
}

}  // namespace kspmv::matrices
