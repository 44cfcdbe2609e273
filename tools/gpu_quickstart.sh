#!/usr/bin/env bash
# Builds kspmv against an installed CUDA-enabled Kokkos and Kokkos Kernels, runs its tests on the GPU,
# installs it, and builds and runs an application against the install: the commands README.md's
# "On an NVIDIA GPU" section lists, run as written there (tools/test_gpu_quickstart.py keeps the two
# the same). Run it from the repository root:
#
#   tools/gpu_quickstart.sh KOKKOS_PREFIX KOKKOSKERNELS_PREFIX KSPMV_PREFIX
#
# GoogleTest is found as CMake finds any package (a system install, or GTest_ROOT in the
# environment). Build trees: build-gpu/ and build-example/.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 KOKKOS_PREFIX KOKKOSKERNELS_PREFIX KSPMV_PREFIX" >&2
  exit 2
fi
KOKKOS_PREFIX=$1
KOKKOSKERNELS_PREFIX=$2
KSPMV_PREFIX=$3
set -x

# gpu-quickstart:begin
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$KOKKOS_PREFIX/bin/nvcc_wrapper" \
  -DKokkos_ROOT="$KOKKOS_PREFIX" -DKokkosKernels_ROOT="$KOKKOSKERNELS_PREFIX" \
  -DCMAKE_INSTALL_PREFIX="$KSPMV_PREFIX" -DKSPMV_ENABLE_TESTS=ON
cmake --build build-gpu --parallel
ctest --test-dir build-gpu --output-on-failure -LE perf --parallel 8
cmake --install build-gpu
cmake -S examples -B build-example -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$KOKKOS_PREFIX/bin/nvcc_wrapper" \
  -DCMAKE_PREFIX_PATH="$KSPMV_PREFIX;$KOKKOS_PREFIX;$KOKKOSKERNELS_PREFIX"
cmake --build build-example
build-example/laplacian_spmv 1000000
# gpu-quickstart:end
