#pragma once
// The plan: analysis and kernel choice at construction, the launches in apply(). Included by one
// translation unit per scalar type, which instantiates it for every ordinal and offset type.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "adaptive_kernel.cuh"
#include "call_operands.cuh"
#include "column_deltas.cuh"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "gather_kernel.cuh"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/errors.hpp"
#include "launch_policy.hpp"
#include "long_row_chunks.cuh"
#include "merge_path_kernel.cuh"
#include "row_major_copy_kernel.cuh"
#include "row_pattern_dictionary.hpp"
#include "row_patterns.cuh"
#include "row_statistics.cuh"
#include "scalar_kernel.cuh"
#include "transpose.hpp"
#include "vector_group_kernel.cuh"
#include "vector_kernel.cuh"

namespace kspmv::cuda {

namespace detail {

// Scalar: x's and y's type, in which products and sums are formed; MatrixScalar: A's values (Scalar
// or its single precision counterpart, widened on load).
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
struct PlanState {
  using T = device_t<Scalar>;
  using Matrix = CsrMatrix<MatrixScalar, Ordinal, Offset>;

  // A^T's structure and a plan for it, made on the first call in mode T or H. Its kernels read A's
  // values in place, through structure.source_entry. Where A^T mirrors A (a symmetric pattern),
  // A's plan serves A^T too: the same rows, the same lengths, the same choice.
  struct Transposed {
    TransposedStructure<Ordinal, Offset> structure;
    std::unique_ptr<PlanState> state;   // null where A^T mirrors A
    DeviceBuffer<MatrixScalar> values;  // A^T's values, kept while A's are declared constant
    bool values_current = false;
  };

  Matrix matrix;  // the structure the plan was made for (values: only their pointer was seen)
  Algorithm requested = Algorithm::Auto;
  PlanOptions options;
  Algorithm chosen = Algorithm::Auto;
  double setup_seconds = 0;
  LaunchPolicy policy = kDefaultPolicy;
  int vector_lanes = 32;         // rank 2: the group kernel's lanes per row (CUSP's rule)
  int single_vector_lanes = 32;  // rank 1: batched_vector_lanes_for the mean row, past the bound
  // Everything the kernels need besides A, x and y, in one allocation (a cudaMalloc costs tens of
  // microseconds): Auto's analysis result, then where each Adaptive block's or MergePath tile's
  // share of the merge path begins, and the scratch that joins rows split over blocks.
  DeviceBuffer<unsigned char> workspace;
  // The analysis: the row length figures, then the column reach histogram (row_statistics.cuh).
  unsigned long long* analysis = nullptr;
  unsigned long long longest = 0;
  unsigned long long long_rows = 0;  // longer than kLongRowEntries
  std::int64_t long_row_entries_in_all = 0;
  bool regular = true;  // the longest row is not far above the mean
  // Nine in ten sampled entries lie within this many columns of the diagonal.
  std::int64_t column_reach = std::numeric_limits<std::int64_t>::max();
  std::int64_t num_blocks = 0;
  std::int64_t* block_rows = nullptr;     // num_blocks + 1: rows before each block's share
  std::int64_t* block_entries = nullptr;  // num_blocks + 1: entries before it
  T* pieces = nullptr;                    // pieces of rows split over blocks (MergePath: carries)
  T* head_pieces = nullptr;               // MergePath: the piece a tile ends a split row with
  int* arrivals = nullptr;                // counters for joining the pieces, zero between launches
  // Irregular rows: the long rows' chunks for rank-2 calls (long_row_chunks.cuh), in an allocation
  // of their own, made only where there are such rows.
  DeviceBuffer<unsigned char> long_row_workspace;
  LongRowChunks<T> long_row_chunks;
  std::unique_ptr<Transposed> transposed;
  // Rank-2 x whose rows are not contiguous (LayoutLeft, strided), copied row after row for the
  // group kernel (reads_x_through_row_major_copy); made at the first call that needs it.
  DeviceBuffer<Scalar> row_major_x;
  // The compressed copy of A's columns (row_patterns.cuh, column_deltas.cuh) where
  // keep_compressed_columns() made one (column_source Own otherwise); columns_note says which, and
  // why, for describe().
  DeviceBuffer<unsigned char> compressed_workspace;
  ColumnSource column_source = ColumnSource::Own;
  CompressedColumns compressed;
  std::int64_t escaped_rows = 0;  // rows (and their entries) that read A's own columns
  std::int64_t escaped_entries = 0;
  std::string columns_note;
  bool values_constant = false;
  // A cached plan (plan_cache.hpp): Adaptive's blocks check their boundaries on the device.
  bool check_block_boundaries = false;

  std::int64_t num_rows() const { return static_cast<std::int64_t>(matrix.num_rows); }
  std::int64_t num_cols() const { return static_cast<std::int64_t>(matrix.num_cols); }
  std::int64_t num_entries() const { return static_cast<std::int64_t>(matrix.num_entries); }
  double mean_row_length() const {
    return num_rows() == 0 ? 0.0 : static_cast<double>(num_entries()) / num_rows();
  }

  static std::int64_t blocks_for(std::int64_t path_length, std::int64_t block_items) {
    return std::max<std::int64_t>(1, (path_length + block_items - 1) / block_items);
  }

  // Analyses A, chooses the kernel and prepares what it needs; waits for the stream.
  void set_up(const Matrix& A, Algorithm requested_algorithm, cudaStream_t stream,
              PlanOptions plan_options = {}) {
    matrix = A;
    requested = requested_algorithm;
    options = plan_options;
    policy = current_device_facts().policy;
    allocate_workspace(stream);
    analyse(stream);
    chosen = requested == Algorithm::Auto ? choose() : requested;
    prepare(stream);
    keep_compressed_columns(stream);
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  // At most one entry in this many may lie in a row that reads A's own columns where Auto keeps a
  // compressed copy.
  static constexpr std::int64_t kMostEscapedEntries = 8;

  // Builds a compressed copy of A's columns for a kernel that reads each entry's column with its
  // row (Vector, Scalar) where the options allow it and, under Auto, where it pays: on a matrix
  // past the latency bound (below it a call waits on its chain of loads, not on their bytes), the
  // dictionary of row patterns where rows repeat, else the 16-bit deltas (in the other order under
  // single precision values with double precision sums on some devices: compressed_forms_in_order).
  // Not for a cached plan, which may be used for another structure at the same addresses.
  void keep_compressed_columns(cudaStream_t stream) {
    const Compression asked = options.compression;
    if (asked == Compression::Never) {
      columns_note = "A's own (compression not allowed)";
    } else if (chosen != Algorithm::Vector && chosen != Algorithm::Scalar) {
      columns_note = "A's own (" + to_string(chosen) + " reads columns before it knows their rows)";
    } else if (check_block_boundaries) {
      columns_note = "A's own (a plan cached for calls without a handle)";
    } else if (num_entries() == 0) {
      columns_note = "A's own (no entries)";
    } else if (asked == Compression::Auto && num_entries() < policy.latency_bound_entries) {
      columns_note = "A's own (latency-bound: fewer than " +
                     std::to_string(policy.latency_bound_entries) + " entries)";
    } else {
      std::string refusals;
      for (const ColumnSource form : compressed_forms_in_order(asked)) {
        const std::string refusal = form == ColumnSource::RowPatterns ? keep_row_patterns(stream)
                                                                      : keep_column_deltas(stream);
        if (refusal.empty()) {
          if (!refusals.empty()) columns_note += " (not " + refusals + ")";
          return;
        }
        refusals += (refusals.empty() ? "" : "; ") + std::string(form_name(form)) + ": " + refusal;
      }
      columns_note = "A's own (" + refusals + ")";
    }
  }

  // The forms keep_compressed_columns() tries, in order: the row patterns first (fewer bytes; on
  // the 27-point stencil faster than the deltas, H100 ms: fp64 0.380 against 0.448, fp32 0.243
  // against 0.309; perf_tests/NOTES.md "Row patterns' setup"), except under single precision
  // values with double precision sums on a device of high bandwidth a multiprocessor (the
  // policy's widened_value_patterns_max_bandwidth_per_sm). Complex values follow the real ones,
  // unmeasured.
  std::vector<ColumnSource> compressed_forms_in_order(Compression asked) const {
    if (asked == Compression::RowPatterns) return {ColumnSource::RowPatterns};
    if (asked == Compression::ColumnDeltas) return {ColumnSource::Deltas};
    if (!std::is_same_v<MatrixScalar, Scalar> &&
        current_device_facts().dram_bytes_per_second_per_sm() >
            policy.widened_value_patterns_max_bandwidth_per_sm) {
      return {ColumnSource::Deltas, ColumnSource::RowPatterns};
    }
    return {ColumnSource::RowPatterns, ColumnSource::Deltas};
  }
  static const char* form_name(ColumnSource form) {
    return form == ColumnSource::RowPatterns ? "row patterns" : "16-bit deltas";
  }

  static std::string workspace_limit_refusal(const char* what, std::size_t bytes,
                                             std::size_t limit) {
    return "the " + std::to_string(bytes) + " bytes of " + what +
           " would pass the workspace limit of " + std::to_string(limit);
  }

  // The dictionary of row patterns (row_patterns.cuh) where it may be kept (RowPatterns: where the
  // sampled rows repeat at all; Auto: where at most one entry in kMostEscapedEntries lies in a row
  // that the dictionary lacks): "" then, else why not. Waits for the stream.
  std::string keep_row_patterns(cudaStream_t stream) {
    const std::int64_t row_step =
        std::max<std::int64_t>(1, (num_rows() + kPatternSampleRows - 1) / kPatternSampleRows);
    const auto sampled = static_cast<std::size_t>((num_rows() + row_step - 1) / row_step);
    // One allocation, made before the sample, and no scratch buffer to free (cudaFree waits for the
    // whole device): the counts, the lookup table (at most 2 slots a sampled row: a pattern is seen
    // twice, and the slots are the power of two from twice the patterns), the dictionary, and each
    // row's pattern, in the space that holds the sample until the host has read it.
    const std::size_t sample_words = sampled * (1 + kLongestSampledPattern);
    const std::size_t bytes = 2 * sizeof(unsigned long long) + 2 * sampled * sizeof(PatternSlot) +
                              kMostPatternEntries * sizeof(std::int32_t) +
                              std::max(static_cast<std::size_t>(num_rows()) * sizeof(std::uint16_t),
                                       sample_words * sizeof(std::int32_t));
    if (workspace_bytes() + bytes > options.workspace_limit) {
      return workspace_limit_refusal("row patterns", bytes, options.workspace_limit);
    }
    compressed_workspace = DeviceBuffer<unsigned char>(bytes);
    unsigned long long* counts = nullptr;
    PatternSlot* slots = nullptr;
    std::int32_t* distances = nullptr;
    std::uint16_t* row_pattern = nullptr;
    auto carve = carver(compressed_workspace);
    carve(counts, 2);
    carve(slots, 2 * sampled);
    carve(distances, static_cast<std::size_t>(kMostPatternEntries));
    carve(row_pattern, static_cast<std::size_t>(num_rows()));
    const auto sample = reinterpret_cast<std::int32_t*>(row_pattern);
    constexpr int kThreads = 256;
    sample_row_patterns_kernel<<<grid_for(static_cast<std::int64_t>(sampled) * 32, kThreads),
                                 kThreads, 0, stream>>>(
        matrix.row_map, matrix.entries, num_rows(), row_step, static_cast<std::int64_t>(sampled),
        sample, sample + sampled);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    std::vector<std::int32_t> host_sample(sample_words);
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(host_sample.data(), sample,
                                     sample_words * sizeof(std::int32_t), cudaMemcpyDeviceToHost,
                                     stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    const RowPatternDictionary dictionary =
        row_pattern_dictionary(host_sample.data(), sampled, host_sample.data() + sampled);
    if (dictionary.patterns == 0) {
      compressed_workspace = {};
      return "no pattern repeats among the sampled rows";
    }
    KSPMV_CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned long long), stream));
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(distances, dictionary.distances.data(),
                                     dictionary.distances.size() * sizeof(std::int32_t),
                                     cudaMemcpyHostToDevice, stream));
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(slots, dictionary.slots.data(),
                                     dictionary.slots.size() * sizeof(PatternSlot),
                                     cudaMemcpyHostToDevice, stream));
    const unsigned blocks = std::min(grid_for(num_rows() * kMatchLanes, kThreads), 8192u);
    match_row_patterns_kernel<<<blocks, kThreads, 0, stream>>>(
        matrix.row_map, matrix.entries, num_rows(), slots,
        static_cast<std::uint32_t>(dictionary.slots.size() - 1), distances, row_pattern, counts,
        counts + 1);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    read_escaped_counts(counts, stream);
    if (options.compression == Compression::Auto &&
        escaped_entries * kMostEscapedEntries > num_entries()) {
      compressed_workspace = {};
      return std::to_string(escaped_entries) + " of " + std::to_string(num_entries()) +
             " entries in rows whose pattern no two sampled rows share";
    }
    column_source = ColumnSource::RowPatterns;
    compressed.patterns = {row_pattern, distances};
    columns_note = "row patterns, 16 bits a row naming one of " +
                   std::to_string(dictionary.patterns) + " (" +
                   std::to_string(dictionary.distances.size()) +
                   " distances from the row in all) that sampled rows repeat (" +
                   std::to_string(escaped_rows) + " of " + std::to_string(num_rows()) + " rows " +
                   "escaped to A's own), " + kCompressedCalls;
    return "";
  }

  // The 16-bit deltas (column_deltas.cuh) where they may be kept (ColumnDeltas: always; Auto: where
  // the sampled columns lie within 2^15 of the diagonal, the values are single precision or the
  // device has modest bandwidth a multiprocessor (launch_policy.hpp), and at most one entry in
  // kMostEscapedEntries lies in an escaped row): "" then, else why not. Waits for the stream.
  std::string keep_column_deltas(cudaStream_t stream) {
    const bool automatic = options.compression == Compression::Auto;
    const double bandwidth_per_sm = current_device_facts().dram_bytes_per_second_per_sm();
    const auto gigabytes_text = [](double bytes) {
      std::ostringstream text;
      text << std::fixed << std::setprecision(1) << bytes * 1e-9;
      return text.str();
    };
    const auto words = static_cast<std::size_t>(ColumnDeltaArrays::escaped_row_words(num_rows()));
    const std::size_t bytes = 2 * sizeof(unsigned long long) + words * sizeof(std::uint32_t) +
                              static_cast<std::size_t>(num_entries()) * sizeof(std::int16_t);
    if (workspace_bytes() + bytes > options.workspace_limit) {
      return workspace_limit_refusal("16-bit deltas", bytes, options.workspace_limit);
    }
    if (automatic && column_reach > kDeltaReach + 1) {  // a power of two: 2^15 passes
      return "sampled columns lie too far from the diagonal for 16 bits";
    }
    if (automatic && std::is_same_v<MatrixScalar, double> &&
        bandwidth_per_sm > policy.double_value_deltas_max_bandwidth_per_sm) {
      return "double precision values on a device of " + gigabytes_text(bandwidth_per_sm) +
             " GB/s of DRAM a multiprocessor, more than " +
             gigabytes_text(policy.double_value_deltas_max_bandwidth_per_sm) +
             ": there the 16-bit deltas' kernel waits on latency, not on bytes";
    }
    compressed_workspace = DeviceBuffer<unsigned char>(bytes);
    unsigned long long* counts = nullptr;
    std::uint32_t* escaped_row_bits = nullptr;
    std::int16_t* deltas = nullptr;
    auto carve = carver(compressed_workspace);
    carve(counts, 2);
    carve(escaped_row_bits, words);
    carve(deltas, static_cast<std::size_t>(num_entries()));
    KSPMV_CUDA_CHECK(cudaMemsetAsync(
        counts, 0, 2 * sizeof(unsigned long long) + words * sizeof(std::uint32_t), stream));
    constexpr int kThreads = 256;
    const unsigned blocks = std::min(grid_for(num_rows() * 32, kThreads), 8192u);
    column_deltas_kernel<<<blocks, kThreads, 0, stream>>>(
        matrix.row_map, matrix.entries, num_rows(), deltas, escaped_row_bits, counts, counts + 1);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    read_escaped_counts(counts, stream);
    if (automatic && escaped_entries * kMostEscapedEntries > num_entries()) {
      compressed_workspace = {};
      return std::to_string(escaped_entries) + " of " + std::to_string(num_entries()) +
             " entries in rows with an entry 2^15 or more columns away";
    }
    column_source = ColumnSource::Deltas;
    compressed.deltas = {deltas, escaped_row_bits};
    columns_note = "16 bits an entry, its distance from its row (" + std::to_string(escaped_rows) +
                   " of " + std::to_string(num_rows()) + " rows escaped to A's own), " +
                   kCompressedCalls;
    return "";
  }

  static constexpr const char* kCompressedCalls =
      "for one-vector calls in modes N and C, and in T and H where A^T mirrors A and the values "
      "are declared constant";

  // The escaped rows and entries a build kernel counted (in counts[0] and counts[1]); waits.
  void read_escaped_counts(const unsigned long long* counts, cudaStream_t stream) {
    unsigned long long result[2] = {};
    KSPMV_CUDA_CHECK(
        cudaMemcpyAsync(result, counts, sizeof result, cudaMemcpyDeviceToHost, stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    escaped_rows = static_cast<std::int64_t>(result[0]);
    escaped_entries = static_cast<std::int64_t>(result[1]);
  }

  // Sized for the kernel `requested` may lead to (Auto leads to Adaptive at most).
  void allocate_workspace(cudaStream_t stream) {
    const std::int64_t path_length = num_rows() + num_entries();
    if (requested == Algorithm::MergePath) {
      num_blocks = blocks_for(path_length, MergePathShape::kTileItems);
    } else if (requested == Algorithm::Adaptive || requested == Algorithm::Auto) {
      num_blocks = blocks_for(path_length, RegularRowsAdaptiveShape<T>::kWindow);
    }
    const auto n = static_cast<std::size_t>(num_blocks);
    // Parts in order of decreasing alignment, so each stays aligned.
    workspace = DeviceBuffer<unsigned char>(
        2 * n * sizeof(T) + (kRowLengthFigures + kReachBuckets) * sizeof(unsigned long long) +
        2 * (n + 1) * sizeof(std::int64_t) + n * sizeof(int));
    auto carve = carver(workspace);
    carve(pieces, n);  // first: a complex T is aligned to 16 bytes
    carve(head_pieces, n);
    carve(analysis, kRowLengthFigures + kReachBuckets);
    carve(block_rows, n + 1);
    carve(block_entries, n + 1);
    carve(arrivals, n);
    KSPMV_CUDA_CHECK(cudaMemsetAsync(arrivals, 0, n * sizeof(int), stream));
  }

  // Hands out consecutive parts of `buffer`, each `count` elements of its pointer's type, in the
  // order asked: ask in order of decreasing alignment, so that each part stays aligned.
  static auto carver(DeviceBuffer<unsigned char>& buffer) {
    return [next = buffer.data()](auto*& part, std::size_t count) mutable {
      part = reinterpret_cast<std::remove_reference_t<decltype(part)>>(next);
      next += count * sizeof(*part);
    };
  }

  // Row lengths and column reach on the device (row_statistics.cuh), read back in one copy.
  void analyse(cudaStream_t stream) {
    if (num_rows() == 0) return;
    constexpr int kFigures = kRowLengthFigures + kReachBuckets;
    KSPMV_CUDA_CHECK(cudaMemsetAsync(analysis, 0, kFigures * sizeof *analysis, stream));
    constexpr int kThreads = 256;
    const unsigned blocks = std::min(grid_for(num_rows(), kThreads), 4096u);
    row_lengths_kernel<<<blocks, kThreads, 0, stream>>>(matrix.row_map, num_rows(), kLongRowEntries,
                                                        analysis);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    const std::int64_t row_step = std::max<std::int64_t>(1, num_rows() / kReachSampleRows);
    const std::int64_t sampled_rows = (num_rows() + row_step - 1) / row_step;
    column_reach_kernel<<<grid_for(sampled_rows * 32, kThreads), kThreads, 0, stream>>>(
        matrix.row_map, matrix.entries, num_rows(), num_cols(), row_step,
        analysis + kRowLengthFigures);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    unsigned long long result[kFigures];
    KSPMV_CUDA_CHECK(
        cudaMemcpyAsync(result, analysis, sizeof result, cudaMemcpyDeviceToHost, stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    longest = result[kLongestRow];
    long_rows = result[kLongRows];
    long_row_entries_in_all = static_cast<std::int64_t>(result[kLongRowEntriesInAll]);
    regular = static_cast<double>(longest) <=
              policy.irregular_row_factor * mean_row_length() + policy.irregular_row_slack;
    column_reach = reach_quantile(result + kRowLengthFigures, 0.9);
  }

  // The reach below which `fraction` of the histogram's entries lie (a power of two).
  static std::int64_t reach_quantile(const unsigned long long* histogram, double fraction) {
    unsigned long long total = 0;
    for (int b = 0; b < kReachBuckets; ++b) total += histogram[b];
    unsigned long long below = 0;
    for (int b = 0; b < kReachBuckets - 1; ++b) {
      below += histogram[b];
      if (static_cast<double>(below) >= fraction * static_cast<double>(total)) {
        return std::int64_t{1} << b;
      }
    }
    return std::numeric_limits<std::int64_t>::max();
  }

  Algorithm choose() const {
    if (num_entries() < policy.latency_bound_entries) {
      // One launch, and no group walking its longest row for long.
      const auto lanes = static_cast<unsigned long long>(vector_lanes_for(mean_row_length()));
      return (longest + lanes - 1) / lanes <= policy.vector_longest_row_steps ? Algorithm::Vector
                                                                              : Algorithm::Adaptive;
    }
    return regular && mean_row_length() >= policy.vector_mean_row_length ? Algorithm::Vector
                                                                         : Algorithm::Adaptive;
  }

  void prepare(cudaStream_t stream) {
    constexpr int kThreads = 256;
    share_out_long_rows(stream);
    switch (chosen) {
      case Algorithm::Vector:
        vector_lanes = vector_lanes_for(mean_row_length());
        // A latency-bound call waits on each row's chain of loads, and more lanes a row start more
        // rows' chains at once: with batched lanes (8-16 times fewer threads) the small real
        // matrices ran 1.2-1.9x slower (ca-GrQc 4.5 -> 8.6 us, lp_e226 4.5 -> 6.9; NOTES.md).
        single_vector_lanes = num_entries() < policy.latency_bound_entries
                                  ? vector_lanes
                                  : batched_vector_lanes_for(mean_row_length());
        break;
      case Algorithm::Adaptive:
        adaptive_row_blocks_kernel<<<grid_for(num_blocks + 1, kThreads), kThreads, 0, stream>>>(
            matrix.row_map, num_rows(), num_blocks, RegularRowsAdaptiveShape<T>::kWindow,
            block_rows, block_entries);
        KSPMV_CUDA_CHECK(cudaGetLastError());
        break;
      case Algorithm::MergePath:
        merge_path_tiles_kernel<<<grid_for(num_blocks + 1, kThreads), kThreads, 0, stream>>>(
            matrix.row_map, num_rows(), num_entries(), num_blocks, MergePathShape::kTileItems,
            block_rows, block_entries);
        KSPMV_CUDA_CHECK(cudaGetLastError());
        break;
      default:
        break;
    }
  }

  // Irregular rows with rows too long for a group of lanes: the table that shares them out over
  // warps in rank-2 calls (long_row_chunks.cuh), or none. None for a cached plan, which may be
  // used for another structure at the same addresses (its table would list other rows).
  void share_out_long_rows(cudaStream_t stream) {
    if (regular || long_rows == 0 || check_block_boundaries || chosen == Algorithm::MergePath) {
      long_row_chunks = {};
      return;
    }
    const auto& device = current_device_facts();
    long_row_chunks.chunk_entries = long_row_chunk_entries(
        long_row_entries_in_all, device.multiprocessors, kVectorGroupBlockThreads / 32);
    const auto rows = static_cast<std::size_t>(long_rows);
    // Each row's last chunk may be partial: at most one chunk per row more than the entries fill.
    const auto chunks = static_cast<std::size_t>(
        long_row_entries_in_all / long_row_chunks.chunk_entries + static_cast<std::int64_t>(rows));
    long_row_workspace = DeviceBuffer<unsigned char>(
        chunks * kMaxVectorsPerLaunch * sizeof(T) + rows * sizeof(LongRow) +
        chunks * sizeof(std::int64_t) + 2 * sizeof(unsigned long long) + rows * sizeof(int));
    LongRow* long_row_list = nullptr;
    std::int64_t* chunk_rows = nullptr;
    unsigned long long* counters = nullptr;
    auto carve = carver(long_row_workspace);
    carve(long_row_chunks.pieces, chunks * kMaxVectorsPerLaunch);
    carve(long_row_list, rows);
    carve(chunk_rows, chunks);
    carve(counters, 2);
    carve(long_row_chunks.arrivals, rows);
    KSPMV_CUDA_CHECK(
        cudaMemsetAsync(counters, 0, 2 * sizeof(unsigned long long) + rows * sizeof(int), stream));
    constexpr int kThreads = 256;
    list_long_rows_kernel<<<std::min(grid_for(num_rows(), kThreads), 4096u), kThreads, 0, stream>>>(
        matrix.row_map, num_rows(), long_row_chunks.chunk_entries, counters, long_row_list,
        chunk_rows);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    unsigned long long listed_chunks = 0;
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(&listed_chunks, counters + 1, sizeof listed_chunks,
                                     cudaMemcpyDeviceToHost, stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    long_row_chunks.num_chunks = static_cast<std::int64_t>(listed_chunks);
    long_row_chunks.rows = long_row_list;
    long_row_chunks.chunk_rows = chunk_rows;
  }

  // How many vectors of a rank-2 call one pass over A multiplies (measured on an H100,
  // perf_tests/NOTES.md "Several vectors at once"): one where MergePath was asked for, or where
  // rows are irregular and either a cached plan cannot share out the long ones (the group kernel
  // walking a long row with one group of lanes ran 29x slower than Adaptive on the power-law
  // matrix) or x is LayoutLeft on a matrix large enough to be bandwidth-bound (power-law fp32,
  // k = 8: 1.19 ms in single-vector passes, 2.05 ms in groups of 3; below, where a call costs
  // little more than its launches, k passes ran 3-4x slower than the best cuSPARSE SpMM on the
  // small irregular matrices of the suite). In LayoutRight, where a row of x is one read, a whole
  // group. In LayoutLeft each vector gathers from its own column of x, so a group runs from L2 only
  // while the part of its columns that rows in flight reach (the column reach, both sides of the
  // diagonal) fits in half of L2: 8 columns gathered at random from DRAM ran 2.7x slower than 8
  // passes, each of whose column stayed in L2. (A plan with a handle on a matrix past the latency
  // bound reads LayoutLeft x through a row-major copy instead: x_as_read.)
  int vectors_per_pass(const DenseBlock<const Scalar>& x) const {
    if (chosen == Algorithm::MergePath) return 1;
    const bool latency_bound = num_entries() < policy.latency_bound_entries;
    if (!regular && (check_block_boundaries || (x.col_stride != 1 && !latency_bound))) return 1;
    if (x.col_stride == 1) return kMaxVectorsPerLaunch;
    const std::int64_t reached_rows =
        column_reach >= x.num_rows / 2 ? x.num_rows : 2 * column_reach + 1;
    const auto column_bytes =
        std::max<std::int64_t>(1, reached_rows * static_cast<std::int64_t>(sizeof(T)));
    return static_cast<int>(std::clamp<std::int64_t>(
        current_device_facts().l2_bytes / 2 / column_bytes, 1, kMaxVectorsPerLaunch));
  }

  // Whether a rank-2 call reads x through a row-major copy: x's rows are not contiguous, a pass
  // takes several vectors, and the matrix is large enough that the copy's launch is lost in the
  // call. Measured on an H100 (fp64, k = 8, perf_tests/NOTES.md "LayoutLeft through a row-major
  // copy of x"): LayoutLeft gathers ran 1.9-6.4x slower than the same matrix in LayoutRight, and
  // the copy costs one read and one write of x. Not for a cached plan, whose later calls may not
  // allocate.
  bool reads_x_through_row_major_copy(const DenseBlock<const Scalar>& x) const {
    return x.num_vectors > 1 && x.col_stride != 1 && chosen != Algorithm::MergePath &&
           !check_block_boundaries && num_entries() >= policy.latency_bound_entries;
  }

  // x as the kernels read it: a row-major copy where reads_x_through_row_major_copy says so, else
  // x itself. The copy's buffer grows on a call that needs more, except while the stream is being
  // captured into a graph (no allocation there): that call reads x in place.
  DenseBlock<const Scalar> x_as_read(const DenseBlock<const Scalar>& x, cudaStream_t stream) {
    if (!reads_x_through_row_major_copy(x)) return x;
    const auto size = static_cast<std::size_t>(x.num_rows * x.num_vectors);
    if (row_major_x.size() < size) {
      const std::size_t others = workspace_bytes() - row_major_x.size() * sizeof(Scalar);
      if (others + size * sizeof(Scalar) > options.workspace_limit) return x;
      cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
      KSPMV_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
      if (capture != cudaStreamCaptureStatusNone) return x;
      row_major_x = DeviceBuffer<Scalar>(size);
    }
    constexpr int kThreads = 256;
    row_major_copy_kernel<<<grid_for(x.num_rows * x.num_vectors, kThreads), kThreads, 0, stream>>>(
        to_device(x.data), x.num_rows, x.num_vectors, x.row_stride, x.col_stride,
        to_device(row_major_x.data()));
    KSPMV_CUDA_CHECK(cudaGetLastError());
    return {row_major_x.data(), x.num_rows, x.num_vectors, x.num_vectors, 1};
  }

  // The kernel, what the analysis measured, how rank-2 calls group vectors, and A^T's plan.
  std::string describe() const {
    std::ostringstream text;
    text << to_string(chosen)
         << (requested == Algorithm::Auto ? " (chosen by Auto)" : " (requested)") << " for "
         << num_rows() << " x " << num_cols() << " with " << num_entries()
         << " entries: " << std::fixed << std::setprecision(1) << mean_row_length()
         << " per row, longest " << longest << (regular ? " (regular rows)" : " (irregular rows)");
    if constexpr (!std::is_same_v<MatrixScalar, Scalar>) {
      text << ", values in single precision widened on load";
    }
    if (column_reach != std::numeric_limits<std::int64_t>::max()) {
      text << ", 9 in 10 sampled entries within " << column_reach << " columns of the diagonal";
    }
    const DenseBlock<const Scalar> left_columns{nullptr, num_cols(), 2, 1, num_cols()};
    const DenseBlock<const Scalar> right_rows{nullptr, num_cols(), 2, 2, 1};
    text << "; several vectors: LayoutRight " << vectors_per_pass(right_rows)
         << " per pass over A, LayoutLeft ";
    if (reads_x_through_row_major_copy(left_columns)) {
      text << "through a row-major copy of x";
    } else {
      text << vectors_per_pass(left_columns);
    }
    if (long_row_chunks.num_chunks > 0) {
      text << ", the " << long_rows << " rows longer than " << kLongRowEntries << " shared out in "
           << long_row_chunks.num_chunks << " chunks of up to " << long_row_chunks.chunk_entries;
    }
    text << "; columns: " << columns_note;
    if (transposed && transposed->state) {
      text << "; modes T and H: A^T built, " << transposed->state->describe();
    } else if (transposed) {
      text << "; modes T and H: A's pattern is symmetric, A^T read through A's structure and plan";
    }
    return text.str();
  }

  // A's bytes that a one-vector call in mode N or C reads (Plan::matrix_bytes_per_call()).
  std::size_t matrix_bytes_per_call() const {
    const auto entries = static_cast<std::size_t>(num_entries());
    const auto rows = static_cast<std::size_t>(num_rows());
    const std::size_t escaped_columns = static_cast<std::size_t>(escaped_entries) * sizeof(Ordinal);
    std::size_t columns = entries * sizeof(Ordinal);
    if (column_source == ColumnSource::Deltas) {
      columns = entries * sizeof(std::int16_t) +
                static_cast<std::size_t>(ColumnDeltaArrays::escaped_row_words(num_rows())) *
                    sizeof(std::uint32_t) +
                escaped_columns;
    } else if (column_source == ColumnSource::RowPatterns) {
      columns = rows * sizeof(std::uint16_t) + escaped_columns;  // the dictionary stays in L1
    }
    return (rows + 1) * sizeof(Offset) + columns + entries * sizeof(MatrixScalar);
  }

  // Device memory held besides the caller's arrays.
  std::size_t workspace_bytes() const {
    std::size_t bytes = workspace.size() + long_row_workspace.size() +
                        row_major_x.size() * sizeof(Scalar) + compressed_workspace.size();
    if (transposed) {
      const auto& t = *transposed;
      bytes += t.structure.row_map.size() * sizeof(Offset) +
               t.structure.entries.size() * sizeof(Ordinal) +
               t.structure.source_entry.size() * sizeof(Offset) +
               t.values.size() * sizeof(MatrixScalar) + (t.state ? t.state->workspace_bytes() : 0);
    }
    return bytes;
  }

  // One launch of the chosen kernel over the rows `args` describes (A's, or A^T's). A group of
  // vectors runs the one kernel that reads A once for all of them (slots per row: group_slots),
  // then, if the plan shares out long rows, the kernel of their chunks.
  template <class Args>
  void launch(const Args& args, cudaStream_t stream) const {
    if constexpr (Args::kVectors > 1) {
      const bool shared_out = long_row_chunks.num_chunks > 0;
      launch_vector_group(args, group_slots(Args::kVectors, args.x_col_stride == 1),
                          shared_out ? kLongRowEntries : std::numeric_limits<std::int64_t>::max(),
                          stream);
      launch_long_row_chunks(args, long_row_chunks, stream);
    } else {
      launch_single(args, stream);
    }
  }

  // Slots per row of the group kernel, `width` vectors at a time (a slot is `width` lanes, or
  // fewer where each lane takes a pack of vectors: the slots, and so the sums' order, are the
  // same). One slot for Scalar; Vector's own lanes (CUSP's rule) where Vector was asked for. A
  // latency-bound matrix (a few microseconds a call) waits on each row's chain of loads, so it
  // takes more: a warp per row, the most slots, or where Auto chose Vector for it, as many as the
  // GPU's resident threads hold (resident_group_slots). Otherwise (Auto's Vector on a
  // bandwidth-bound matrix too: with x rows contiguous and a mean of 64 or more this gives Vector's
  // lanes) as many slots as the mean row holds 8 entries (x rows contiguous: LayoutRight, or
  // LayoutLeft through the row-major copy) or 16 (LayoutLeft read in place, whose gathers from
  // separate columns wait longer), in powers of two. Fewer slots mean fewer steps whose cost is the
  // row's (its sums added across slots, its loads, its stores) but fewer entries in flight.
  // Measured on an H100, fp64, k = 8 (perf_tests/NOTES.md, "instruction diet"): 27-point stencil
  // LayoutRight 1.73 / 1.41 / 1.47 ms with 4 / 2 / 1 slots, LayoutLeft 3.07 / 2.97 / 2.67; 16
  // random columns a row, LayoutRight, 1.04 ms with 2 slots and 1.11 with 1.
  int group_slots(int width, bool x_rows_contiguous) const {
    const bool latency_bound = num_entries() < policy.latency_bound_entries;
    int slots = 1;
    if (chosen == Algorithm::Scalar) {
      slots = 1;
    } else if (chosen == Algorithm::Vector && requested == Algorithm::Vector) {
      slots = std::max(1, vector_lanes / width);
    } else if (chosen == Algorithm::Vector && latency_bound) {
      slots = resident_group_slots(width, x_rows_contiguous);
    } else if (latency_bound) {
      slots = 32 / width;
    } else {
      const double entries_per_slot = x_rows_contiguous ? 8 : 16;
      while (slots * width < 32 && 2 * slots * entries_per_slot <= mean_row_length()) slots *= 2;
    }
    return slots;
  }

  // The group kernel's threads a SM holds at once, about (its registers allow 3 blocks of 256 at
  // 80, 4 at 58). Measured on an H100 (fp64, k = 8, the quick suite's latency-bound matrices that
  // Auto gives to Vector; perf_tests/NOTES.md "Rank-2 calls on small irregular matrices"), one
  // vector a lane: a warp per row won while its threads stayed within it, up to 5,300 rows
  // (ca-GrQc 16.5 -> 7.9 us, add32 9.8 -> 5.0, bcspwr10 6.5 -> 5.0), and lost from 7,920
  // (commanche_dual 4.9 -> 5.8, Pd 4.5 -> 5.8, bfly 7.5 -> 21.8, delaunay_n16 11.5 -> 28.3).
  static constexpr std::int64_t kResidentGroupThreadsPerSm = 768;

  // Auto's Vector on a latency-bound matrix: the most slots whose threads stay within the resident
  // ones, at least Vector's lanes, at most a warp's worth of lanes a row. The threads count a
  // slot's lanes as packs of vectors where x's rows are contiguous (as most such calls read them),
  // so that the slots, and the sums' order, never depend on x's alignment. Measured on an H100
  // (fp64, k = 8, perf_tests/NOTES.md "Slots for the resident threads"): bayer10 LayoutRight took 2
  // slots instead of 1 and 5.5-5.7 us instead of 7.6; commanche_dual lost 3-13% at 4 slots
  // (LayoutRight) and 2 (LayoutLeft).
  int resident_group_slots(int width, bool x_rows_contiguous) const {
    const int pack = x_rows_contiguous ? pack_for_width<T>(width) : 1;
    const std::int64_t groups = (num_rows() + kGroupRows - 1) / kGroupRows;
    const auto threads = [&](int slots) { return groups * slots * (width / pack); };
    const std::int64_t resident =
        current_device_facts().multiprocessors * kResidentGroupThreadsPerSm;
    int slots = std::max(1, vector_lanes / width);
    while (slots * width < 32 && threads(2 * slots) <= resident) slots *= 2;
    return slots;
  }

  template <class Args>
  void launch_single(const Args& args, cudaStream_t stream) const {
    switch (chosen) {
      case Algorithm::Scalar:
        launch_scalar(args, stream);
        break;
      case Algorithm::Vector:
        launch_vector(args, stream);
        break;
      case Algorithm::Adaptive:
        // Gathered values need an index register more: under the 32-register cap they spilled
        // 140 bytes (fp64), and transposed calls ran 1.2-1.3x slower (perf_tests/NOTES.md).
        if constexpr (Args::gathered_values) {
          launch_adaptive<IrregularRowsAdaptiveShape<T>>(args, stream);
        } else if (regular) {
          launch_adaptive<RegularRowsAdaptiveShape<T>>(args, stream);
        } else {
          launch_adaptive<IrregularRowsAdaptiveShape<T>>(args, stream);
        }
        break;
      case Algorithm::MergePath: {
        using Shape = MergePathShape;
        const MergePathTiles<T> tiles{num_blocks, block_rows,  block_entries,
                                      pieces,     head_pieces, arrivals};
        merge_path_spmv_kernel<Shape>
            <<<static_cast<unsigned>(tiles.num_tiles), Shape::kBlockThreads, 0, stream>>>(args,
                                                                                          tiles);
        break;
      }
      default:
        throw unsupported_argument("kspmv::cuda::Plan: no kernel for algorithm " +
                                   to_string(chosen));
    }
  }

  template <class Shape, class Args>
  void launch_adaptive(const Args& args, cudaStream_t stream) const {
    const AdaptiveBlocks<T> blocks{num_blocks, block_rows, block_entries,
                                   pieces,     arrivals,   check_block_boundaries};
    adaptive_spmv_kernel<Shape>
        <<<static_cast<unsigned>(num_blocks), Shape::kBlockThreads, 0, stream>>>(args, blocks);
  }

  // The kernels that read each entry's column with its row, those keep_compressed_columns()
  // builds a compressed copy for.
  template <class Args>
  void launch_reading_compressed(const Args& args, cudaStream_t stream) const {
    if (chosen == Algorithm::Scalar) {
      launch_scalar(args, stream);
    } else {
      launch_vector(args, stream);
    }
  }

  template <class Args>
  void launch_scalar(const Args& args, cudaStream_t stream) const {
    const int threads = policy.scalar_block_threads;
    scalar_spmv_kernel<<<grid_for(num_rows(), threads), threads, 0, stream>>>(args);
  }

  template <int Lanes, class Args>
  void launch_vector_lanes(const Args& args, cudaStream_t stream) const {
    if constexpr (runs_bounded_vector_kernel<Args>()) {
      constexpr int threads = kBoundedVectorBlockThreads;
      bounded_vector_spmv_kernel<Lanes>
          <<<grid_for(num_rows() * Lanes, threads), threads, 0, stream>>>(args);
    } else {
      const int threads = policy.vector_block_threads;
      vector_spmv_kernel<Lanes>
          <<<grid_for(num_rows() * Lanes, threads), threads, 0, stream>>>(args);
    }
  }

  template <class Args>
  void launch_vector(const Args& args, cudaStream_t stream) const {
    switch (single_vector_lanes) {
      case 2:
        return launch_vector_lanes<2>(args, stream);
      case 4:
        return launch_vector_lanes<4>(args, stream);
      case 8:
        return launch_vector_lanes<8>(args, stream);
      case 16:
        return launch_vector_lanes<16>(args, stream);
      default:
        return launch_vector_lanes<32>(args, stream);
    }
  }

  void check_structure(const Matrix& A) const {
    if (A.num_rows != matrix.num_rows || A.num_cols != matrix.num_cols ||
        A.num_entries != matrix.num_entries || A.row_map != matrix.row_map ||
        A.entries != matrix.entries) {
      throw unsupported_argument(
          "kspmv::cuda::Plan::apply: the plan was made for a " +
          shape_string(num_rows(), num_cols()) + " matrix with " + std::to_string(num_entries()) +
          " entries at other arrays; got a " +
          shape_string(static_cast<std::int64_t>(A.num_rows),
                       static_cast<std::int64_t>(A.num_cols)) +
          " matrix with " + std::to_string(static_cast<std::int64_t>(A.num_entries)) +
          " entries: make a new plan");
    }
  }

  // The first call builds it (and waits for the stream); its time joins setup_seconds.
  Transposed& transposed_plan(cudaStream_t stream) {
    if (!transposed) {
      const auto start = std::chrono::steady_clock::now();
      auto structure = transpose_structure(matrix.row_map, matrix.entries, num_rows(), num_cols(),
                                           num_entries(), stream);
      std::unique_ptr<PlanState> state;
      if (!structure.mirrors_a()) {
        const Matrix matrix_t{matrix.num_cols,          matrix.num_rows,
                              matrix.num_entries,       structure.row_map.data(),
                              structure.entries.data(), matrix.values};
        state = std::make_unique<PlanState>();
        // Transposed calls read A's values through a permutation, with A^T's own columns.
        state->set_up(matrix_t, requested, stream, {Compression::Never, options.workspace_limit});
      }
      transposed.reset(new Transposed{std::move(structure), std::move(state), {}, false});
      setup_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return *transposed;
  }

  // The transposed copy of A's values, gathered when they were declared changed since the last.
  void refresh_transposed_values(const MatrixScalar* values, cudaStream_t stream) {
    auto& t = *transposed;
    if (t.values_current) return;
    if (t.values.size() != static_cast<std::size_t>(num_entries())) {
      t.values = DeviceBuffer<MatrixScalar>(static_cast<std::size_t>(num_entries()));
    }
    constexpr int kThreads = 256;
    gather_kernel<<<grid_for(num_entries(), kThreads), kThreads, 0, stream>>>(
        to_device(values), t.structure.source_entry.data(), to_device(t.values.data()),
        num_entries());
    KSPMV_CUDA_CHECK(cudaGetLastError());
    t.values_current = true;
  }

  void values_changed() {
    if (transposed) transposed->values_current = false;
  }

  // The plan of A^T, whose matrix holds A^T's row map and columns: its own, or this one.
  const PlanState& transposed_state() const {
    return transposed->state ? *transposed->state : *this;
  }
};

}  // namespace detail

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>::Plan(const Matrix& A, Algorithm requested,
                                                  cudaStream_t stream, PlanOptions options)
    : state_(std::make_unique<detail::PlanState<Scalar, Ordinal, Offset, MatrixScalar>>()) {
  const auto start = std::chrono::steady_clock::now();
  if (requested == Algorithm::KokkosKernels) {
    throw unsupported_argument(
        "kspmv::cuda::Plan: Algorithm::KokkosKernels is not a kernel of the CUDA backend (it runs "
        "KokkosSparse::spmv, on the Kokkos path only)");
  }
  detail::check_matrix("kspmv::cuda::Plan", A);
  state_->set_up(A, requested, stream, options);
  state_->setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>::~Plan() = default;
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>::Plan(Plan&&) noexcept = default;
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>& Plan<Scalar, Ordinal, Offset, MatrixScalar>::operator=(
    Plan&&) noexcept = default;

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Algorithm Plan<Scalar, Ordinal, Offset, MatrixScalar>::algorithm() const {
  return state_->chosen;
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
double Plan<Scalar, Ordinal, Offset, MatrixScalar>::setup_seconds() const {
  return state_->setup_seconds;
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
std::string Plan<Scalar, Ordinal, Offset, MatrixScalar>::describe() const {
  return state_->describe();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
std::size_t Plan<Scalar, Ordinal, Offset, MatrixScalar>::workspace_bytes() const {
  return state_->workspace_bytes();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
std::size_t Plan<Scalar, Ordinal, Offset, MatrixScalar>::matrix_bytes_per_call() const {
  return state_->matrix_bytes_per_call();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void Plan<Scalar, Ordinal, Offset, MatrixScalar>::set_values_constant(bool constant) {
  state_->values_constant = constant;
  state_->values_changed();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void Plan<Scalar, Ordinal, Offset, MatrixScalar>::values_changed() {
  state_->values_changed();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void Plan<Scalar, Ordinal, Offset, MatrixScalar>::apply(Mode mode, Scalar alpha, const Matrix& A,
                                                        DenseBlock<const Scalar> x, Scalar beta,
                                                        DenseBlock<Scalar> y, cudaStream_t stream) {
  auto& s = *state_;
  s.check_structure(A);
  detail::check_call_operands("kspmv::cuda::Plan::apply", mode, A, x, y);
  if (!detail::product_needed(A, alpha, y, beta, stream)) return;
  const DenseBlock<const Scalar> x_read = s.x_as_read(x, stream);
  // One-vector calls over A's rows read the plan's compressed columns where it keeps them.
  const bool reads_compressed = s.column_source != detail::ColumnSource::Own && y.num_vectors == 1;
  const auto launch_reading_compressed = [&](const MatrixScalar* values) {
    const auto launch = [&](auto source) {
      detail::launch_per_vector<false, 1, decltype(source)::value>(
          s.num_rows(), A.row_map, A.entries, values, static_cast<const Offset*>(nullptr), mode,
          alpha, x_read, beta, y, 1,
          [&](const auto& args) { s.launch_reading_compressed(args, stream); }, s.compressed);
    };
    using detail::ColumnSource;
    if (s.column_source == ColumnSource::RowPatterns) {
      launch(std::integral_constant<ColumnSource, ColumnSource::RowPatterns>{});
    } else {
      launch(std::integral_constant<ColumnSource, ColumnSource::Deltas>{});
    }
  };
  if (is_transposed(mode)) {
    auto& t = s.transposed_plan(stream);
    const auto& plan_t = s.transposed_state();
    const auto launch_t = [&](const auto& args) { plan_t.launch(args, stream); };
    if (s.values_constant) {
      s.refresh_transposed_values(A.values, stream);
      if (&plan_t == &s && reads_compressed) {
        // A^T mirrors A: its rows have A's columns, read with the transposed copy of the values
        // (in A's entry order).
        launch_reading_compressed(t.values.data());
        return;
      }
      detail::launch_per_vector<false>(s.num_cols(), plan_t.matrix.row_map, plan_t.matrix.entries,
                                       t.values.data(), static_cast<const Offset*>(nullptr), mode,
                                       alpha, x_read, beta, y, plan_t.vectors_per_pass(x_read),
                                       launch_t);
      return;
    }
    detail::launch_per_vector<true>(s.num_cols(), plan_t.matrix.row_map, plan_t.matrix.entries,
                                    A.values, t.structure.source_entry.data(), mode, alpha, x_read,
                                    beta, y, plan_t.vectors_per_pass(x_read), launch_t);
    return;
  }
  if (reads_compressed) {
    launch_reading_compressed(A.values);
    return;
  }
  detail::launch_per_vector<false>(s.num_rows(), A.row_map, A.entries, A.values,
                                   static_cast<const Offset*>(nullptr), mode, alpha, x_read, beta,
                                   y, s.vectors_per_pass(x_read),
                                   [&](const auto& args) { s.launch(args, stream); });
}

}  // namespace kspmv::cuda
