#pragma once
// y = beta*y + alpha*op(A)*x for a caller that keeps no Plan (kspmv::spmv without a handle).
//
// Modes N and C: the first call for a matrix (its sizes and arrays, on this device and stream)
// checks A's structure as a Plan does (kspmv::malformed_matrix), makes an Auto plan and keeps it in
// a bounded cache the library owns (16 per scalar, ordinal and offset type, least recently used
// dropped); later calls reuse it: no allocation, no host synchronisation, the speed of a planned
// call, capturable in a CUDA graph. A plan found for other contents at the same addresses is still
// right, for a well-formed structure: what a cached plan keeps only steers speed (its blocks check
// their boundaries against the row map on the device), but the check ran on the first contents. A
// call captured into a graph before any plan was made runs RowBlocks, a kernel that needs none, on
// a structure nobody checked (a capture can wait for nothing): make one call outside the capture
// first. Modes T and H need A^T's structure, which depends on A's contents: the first such call
// for a matrix checks A and makes a Plan (allocations, a sort, waits for the stream) kept in the
// same kind of cache; every such call first fingerprints A's row map and columns on the device and
// waits for the stream, and makes the Plan again where they changed. So these calls cannot be
// captured into a graph (kspmv::unsupported_argument): keep a Plan for that, and to skip the
// fingerprint. Bitwise reproducible; the same contract for shapes, beta == 0 and alpha == 0 as
// Plan::apply.

#include <cuda_runtime_api.h>

#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"

namespace kspmv::cuda {

// What the caller of apply_without_plan knows of A.
struct WithoutPlanOptions {
  // The caller checked A's structure in these arrays (kspmv::spmv checks each structure it has not
  // met and holds on to its arrays): plans made for it do not check it again.
  bool structure_checked = false;
};

// A's values may be Scalar's single precision counterpart, as for Plan.
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void apply_without_plan(Mode mode, Scalar alpha, const CsrMatrix<MatrixScalar, Ordinal, Offset>& A,
                        DenseBlock<const Scalar> x, Scalar beta, DenseBlock<Scalar> y,
                        cudaStream_t stream, WithoutPlanOptions options = {});

// Frees every cached plan (device memory); calls after it make new ones. Kokkos' finalize calls it
// for kspmv::spmv's calls without a handle; a raw-API program calls it before resetting the device.
void release_cached_plans();

}  // namespace kspmv::cuda
