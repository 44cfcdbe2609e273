#pragma once
// What every SpMV kernel receives: one CSR matrix, one input and one output vector, the scalars,
// and the conjugation flag; VectorGroupArguments adds the columns of a group of vectors that one
// launch multiplies at once. Kernels take them as a template parameter `Args` and read its types
// from it.

#include <cstdint>
#include <type_traits>

#include "device/device_scalar.cuh"

namespace kspmv::cuda::detail {

// GatheredValues: entry e's value is values[value_positions[e]]. A transposed call reads A^T this
// way, A's own values through the permutation that transposed A's structure, so that no call copies
// the values (which may have changed since the last call). MatrixValue: A's values, T or its single
// precision counterpart, widened on load (products and sums in T). Columns: the form in which a
// kernel that knows the row reads its columns (OwnColumns or a compressed form of formats/:
// row_columns(row, begin), then compressed_column(entry, row, base) in a row whose columns are
// compressed); kernels that do not know it read A's own (column(entry)); NoColumns: none is read,
// and every entry's x is one. The kernels know a form only by its traits (kCompressed,
// kReadsColumns, kColumnsFromCache, Arrays): formats/ defines the forms, plan/ instantiates.
template <class T, class Ordinal, class Offset, bool GatheredValues, class MatrixValue,
          class Columns>
struct SpmvArguments {
  using value_type = T;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  static constexpr bool gathered_values = GatheredValues;
  using columns_type = Columns;
  static constexpr bool compressed_columns = Columns::kCompressed;
  static constexpr bool reads_columns = Columns::kReadsColumns;
  static constexpr int kVectors = 1;         // vectors per launch
  static constexpr int kVectorsPerLane = 1;  // see VectorGroupArguments
  // Whether the kernels that load a batch of entries before their products (Vector, the staging of
  // Adaptive's rows) tie each x gather to its value (column_after_value), so that the batch's
  // column and value loads share one DRAM round trip. With fp32 values the tie made the stencil's
  // Vector faster on the H100 and the H200 (fp32 values with fp64 vectors too) and Adaptive a
  // little faster on the H100; with fp64 values the stencil ran slower and Adaptive no faster (not
  // profiled), so double precision values keep the compiler's order (DR-20). Not where the columns
  // come from the row patterns: their columns arrive from L1, long before the values, and the tie
  // made each gather wait a DRAM round trip for nothing (DR-25).
  static constexpr bool gathers_after_values =
      std::is_same_v<MatrixValue, float> && !Columns::kColumnsFromCache;
  // Whether Vector issues all of a batch's x gathers before any product, each gather waiting for
  // all of the batch's values (gathers_after_batch). Complex values only: their products are long
  // enough that ptxas branches around each, gather included, after the loads of the entries before
  // it, and a batch took about 5 memory round trips instead of 2 (sm_90 SASS, DR-41). Real products
  // are predicated, and their loads already go out first. Adaptive's staging keeps the compiler's
  // order: there the same ties raised the 8-block complex<double> kernel's spills from 8 to 48
  // bytes a thread. Not where the columns come from the row patterns (as gathers_after_values):
  // there the tie made the stencil's complex<double> calls slower (DR-41).
  static constexpr bool gathers_before_products =
      !std::is_arithmetic_v<T> && !Columns::kColumnsFromCache;
  // Whether Vector's x gathers of a batch wait for all of the batch's columns (gathers_after_batch)
  // where the columns come from the row patterns, in double precision. Without it ptxas gives the
  // batch's fourth column the first column's register, so that its load waits for the first gather
  // and its own gather makes a second round trip: the stencil's fp64 calls slowed with DR-40's
  // instruction diet, and the tie won the time back (DR-40).
  static constexpr bool gathers_after_columns =
      Columns::kColumnsFromCache && std::is_same_v<MatrixValue, double>;

  std::int64_t num_rows;
  const Offset* row_map;
  const Ordinal* entries;
  const MatrixValue* values;
  const T* x;
  std::int64_t x_stride;
  T* y;
  std::int64_t y_stride;
  T alpha;
  T beta;
  bool beta_is_zero;  // then y is written without being read, so NaN already there cannot survive
  bool conjugate;
  const Offset* value_positions = nullptr;   // GatheredValues only
  typename Columns::Arrays compressed = {};  // a compressed form's device arrays
  // Zero on every launch; the compiler cannot know it (column_after_value).
  std::uint32_t zero_bits = 0;

  __device__ std::int64_t row_begin(std::int64_t row) const {
    return static_cast<std::int64_t>(__ldg(row_map + row));
  }

  __device__ Ordinal column(std::int64_t entry) const {
    if constexpr (reads_columns) {
      return load_streaming(entries + entry);
    } else {
      return Ordinal{};
    }
  }
  // Whether row's columns are read from the compressed form (not escaped), and from where.
  __device__ auto row_columns(std::int64_t row, std::int64_t begin) const {
    return compressed.row_columns(row, begin);
  }
  // Entry's column in a row whose row_columns(row, begin) are compressed, `base` theirs.
  __device__ Ordinal compressed_column(std::int64_t entry, std::int64_t row,
                                       std::int64_t base) const {
    return compressed.template column<Ordinal>(entry, row, base);
  }
  // Bits of `value` masked with zero_bits: zero, but only once the value has arrived. Or-ed into a
  // column they make its x gather wait for that value (column_after_value).
  template <class V>
  __device__ std::uint32_t arrival_bits(V value) const {
    if constexpr (!std::is_arithmetic_v<V>) {
      return arrival_bits(value.re);
    } else if constexpr (sizeof(V) == sizeof(double)) {
      return static_cast<std::uint32_t>(__double2hiint(value)) & zero_bits;
    } else {
      return __float_as_uint(value) & zero_bits;
    }
  }
  // `column`, made to wait for `value`. Without this data dependency ptxas issues a thread's value
  // loads after the x gathers of the columns that arrived first, and the batch takes two DRAM
  // round trips instead of one.
  __device__ Ordinal column_after_value(Ordinal column, T value) const {
    return column | static_cast<Ordinal>(arrival_bits(value));  // one LOP3 with the mask
  }
  __device__ T value(std::int64_t entry) const {
    if constexpr (GatheredValues) {
      // Through the read-only cache: neighbouring entries of A^T often sit in one sector of A.
      return widen<T>(load_readonly(
          values + static_cast<std::int64_t>(load_streaming(value_positions + entry))));
    } else {
      return widen<T>(load_streaming(values + entry));
    }
  }
  // x(column). ContiguousX: the caller knows x_stride == 1, and the address takes no 64-bit
  // multiply (7 instructions fewer an entry on sm_90).
  template <bool ContiguousX = false>
  __device__ T x_at(Ordinal column) const {
    if constexpr (reads_columns) {
      const std::int64_t row = static_cast<std::int64_t>(column);
      return load_readonly(x + (ContiguousX ? row : row * x_stride));
    } else {
      return one<T>();  // multiplied as a loaded one would be: the same sums, bit for bit
    }
  }
  // a * x_value, a conjugated in modes C and H.
  __device__ T times(T a, T x_value) const { return conjugate_if(a, conjugate) * x_value; }
  template <bool ContiguousX = false>
  __device__ T times_x(T a, Ordinal column) const {
    return conjugate_if(a, conjugate) * x_at<ContiguousX>(column);
  }
  __device__ T product(std::int64_t entry) const { return times_x(value(entry), column(entry)); }

  // Where beta != 0, store() reads y(row) after the row's products: a block would end on a DRAM
  // round trip. Kernels that know their rows early ask for y(row) then (DR-07).
  __device__ void prefetch_y(std::int64_t row) const {
    if (!beta_is_zero) prefetch_to_l2(y + row * y_stride);
  }

  // y(row) = alpha * row_sum + beta * y(row)
  __device__ void store(std::int64_t row, T row_sum) const {
    T* target = y + row * y_stride;
    store_streaming(target, beta_is_zero ? alpha * row_sum : alpha * row_sum + beta * *target);
  }
};

// Where Args::gathers_before_products, a batch's x gathers made to wait for every value the batch
// loaded (`loaded(i)`: whether entry i of the batch was), so that all of A's loads go out before
// any gather; where Args::gathers_after_columns, for every column it loaded, so that all of its
// column loads go out first.
template <int Batch, class Args, class Loaded>
__device__ inline void gathers_after_batch(const Args& args,
                                           const typename Args::value_type (&values)[Batch],
                                           typename Args::ordinal_type (&columns)[Batch],
                                           Loaded&& loaded) {
  if constexpr (Args::gathers_before_products) {
    std::uint32_t batch_arrival = 0;
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      if (loaded(i)) batch_arrival |= args.arrival_bits(values[i]);
    }
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      columns[i] |= static_cast<typename Args::ordinal_type>(batch_arrival);
    }
  }
  if constexpr (Args::gathers_after_columns) {
    std::uint32_t columns_arrival = 0;
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      if (loaded(i)) columns_arrival |= static_cast<std::uint32_t>(columns[i]) & args.zero_bits;
    }
#pragma unroll
    for (int i = 0; i < Batch; ++i) {
      columns[i] |= static_cast<typename Args::ordinal_type>(columns_arrival);
    }
  }
}

// How a lane of the group kernel reads the elements of a row of x its pack of vectors takes:
// Together, one load (x's rows contiguous, x and x_stride aligned to the pack, num_vectors whole
// packs: launch_per_vector.cuh checks), or Apart, one load an element (vector_pack.cuh).
enum class PackLoads { Together, Apart };

// Up to Width vectors of a rank-2 call (num_vectors of them: the last group of a call may be
// partial): vector w of x and y starts col_stride elements after vector w-1; x and y of the base
// are vector 0. Each lane of the group kernel multiplies VectorsPerLane neighbouring vectors.
template <int Width, class Single, int VectorsPerLane = 1, PackLoads Loads = PackLoads::Apart>
struct VectorGroupArguments : Single {
  using T = typename Single::value_type;
  static constexpr int kVectors = Width;
  static constexpr int kVectorsPerLane = VectorsPerLane;
  static constexpr PackLoads kPackLoads = Loads;
  static_assert(Width % VectorsPerLane == 0);

  std::int64_t x_col_stride;
  std::int64_t y_col_stride;
  int num_vectors;

  __device__ void prefetch_y(std::int64_t row, int vector) const {
    if (!this->beta_is_zero) prefetch_to_l2(this->y + row * this->y_stride + vector * y_col_stride);
  }

  // y(row, vector) = alpha * row_sum + beta * y(row, vector)
  __device__ void store(std::int64_t row, int vector, T row_sum) const {
    T* target = this->y + row * this->y_stride + vector * y_col_stride;
    store_streaming(target, this->beta_is_zero ? this->alpha * row_sum
                                               : this->alpha * row_sum + this->beta * *target);
  }
};

// The same vectors, VectorsPerLane of them a lane, read apart (so x's rows need be neither
// contiguous nor aligned). A row's slots add each vector's products in the same order whatever the
// lanes' pack, so this changes the threads a row takes, not the bits.
template <int VectorsPerLane, int Width, class Single, int FromVectorsPerLane, PackLoads Loads>
VectorGroupArguments<Width, Single, VectorsPerLane, PackLoads::Apart> with_vectors_per_lane(
    const VectorGroupArguments<Width, Single, FromVectorsPerLane, Loads>& args) {
  return {static_cast<const Single&>(args), args.x_col_stride, args.y_col_stride, args.num_vectors};
}

}  // namespace kspmv::cuda::detail
