#pragma once
// y = beta*y + alpha*op(A)*x for a caller that keeps no Plan (kspmv::spmv without a handle).
//
// Modes N and C run RowBlocks, a kernel that needs no analysis of A: one launch on `stream`, no
// allocation, no host synchronisation, so the call costs what a planned one costs and can be
// captured in a CUDA graph. Modes T and H need A^T's structure, which only a Plan keeps: such a call
// makes a temporary Plan (allocations, a sort, waits for the stream); keep a Plan to pay that once.
// Bitwise reproducible; the same contract for shapes, beta == 0 and alpha == 0 as Plan::apply.

#include <cuda_runtime_api.h>

#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"

namespace kspmv::cuda {

template <class Scalar, class Ordinal, class Offset>
void apply_without_plan(Mode mode, Scalar alpha, const CsrMatrix<Scalar, Ordinal, Offset>& A,
                        DenseBlock<const Scalar> x, Scalar beta, DenseBlock<Scalar> y,
                        cudaStream_t stream);

}  // namespace kspmv::cuda
