#pragma once
// NonzeroSplit: the nonzeros cut into runs of kRunEntries, one run a thread in entry order (the
// layout of cuSPARSE's CSR kernel): every thread does the same work whatever the rows' lengths, and
// a run's columns and values arrive in 16-byte loads. A plan table holds the row each run starts
// in. A thread sums its run row by row: a row that began in the run and ends in it is stored at
// once; the piece of the row open at the run's end (its carry) and the piece of the row it found
// open at its start (its head) are joined by a segmented scan over the block's threads, and rows
// cut between blocks as in MergePath (join_row_pieces.cuh). One launch, bitwise reproducible.
//
// A thread also stores, one after another, the empty rows that end in its run (after its last
// entry, before the next run's row): a long stretch of empty rows falls on one thread.

#include <cstdint>
#include <type_traits>

#include "device/block_segmented_scan.cuh"
#include "kernels/join_row_pieces.cuh"
#include "kernels/spmv_arguments.cuh"

namespace kspmv::cuda::detail {

// What a launch needs besides A, x and y: the runs' first rows, and the scratch that joins rows cut
// between blocks (a block's carry and head pieces, as in MergePathTiles).
template <class T>
struct NonzeroRuns {
  std::int64_t num_blocks = 0;
  // Run r's first row, of A's ordinal type: row 0 for run 0, else the row holding entry
  // r * kRunEntries. The table may describe another structure of the same sizes (a plan cached for
  // calls without a handle): each thread checks its row against the row map and finds it anew
  // when it does not match, so the result never depends on the table.
  const void* first_rows = nullptr;
  T* carry_pieces = nullptr;  // the piece of the row still open at a block's end
  T* head_pieces = nullptr;   // the piece of the row a block found open at its start and ended
  int* arrivals = nullptr;    // indexed by the block where the cut row ends; zero between launches
};

// The row holding `entry` (< the number of entries): the first row whose end lies past it.
template <class Offset>
__device__ inline std::int64_t row_holding(const Offset* row_map, std::int64_t num_rows,
                                           std::int64_t entry) {
  std::int64_t low = 0;
  std::int64_t high = num_rows - 1;
  while (low < high) {
    const std::int64_t middle = low + (high - low) / 2;
    if (static_cast<std::int64_t>(row_map[middle + 1]) <= entry) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

template <class Offset, class Ordinal>
__global__ void nonzero_run_rows_kernel(const Offset* row_map, std::int64_t num_rows,
                                        std::int64_t num_runs, int run_entries,
                                        Ordinal* first_rows) {
  const std::int64_t run = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (run >= num_runs) return;
  first_rows[run] =
      static_cast<Ordinal>(run == 0 ? 0 : row_holding(row_map, num_rows, run * run_entries));
}

// N consecutive elements from a 16-byte boundary, in 16-byte streaming loads.
template <int N, class V>
__device__ inline void load_aligned_run(const V* from, V (&to)[N]) {
  static_assert(N * sizeof(V) % 16 == 0, "a run fills whole 16-byte loads");
  const auto* chunks = reinterpret_cast<const int4*>(from);
#pragma unroll
  for (int k = 0; k < static_cast<int>(N * sizeof(V) / 16); ++k) {
    const int4 chunk = __ldcs(chunks + k);
    __builtin_memcpy(reinterpret_cast<unsigned char*>(to) + 16 * k, &chunk, 16);
  }
}

// The products of entries [begin, end) (end - begin <= N); zero past end.
template <int N, class Args>
__device__ inline void run_products(const Args& args, std::int64_t begin, std::int64_t end,
                                    bool aligned, typename Args::value_type (&products)[N]) {
  using T = typename Args::value_type;
  if constexpr (Args::gathered_values) {
#pragma unroll
    for (int i = 0; i < N; ++i) products[i] = begin + i < end ? args.product(begin + i) : T{};
  } else {
    using MatrixValue = std::remove_cv_t<std::remove_pointer_t<decltype(args.values)>>;
    typename Args::ordinal_type columns[N];
    MatrixValue values[N];
    if (aligned && end - begin == N) {
      load_aligned_run(args.entries + begin, columns);
      load_aligned_run(args.values + begin, values);
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) {
        if (begin + i < end) {
          columns[i] = args.column(begin + i);
          values[i] = load_streaming(args.values + begin + i);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < N; ++i) {
      products[i] = begin + i < end ? args.times_x(widen<T>(values[i]), columns[i]) : T{};
    }
  }
}

// The first row of the run starting at `begin`: the table's, where the row map agrees.
template <class Args>
__device__ inline std::int64_t checked_first_row(const Args& args, std::int64_t table_row,
                                                 std::int64_t begin) {
  if (begin == 0) return 0;
  if (table_row >= 0 && table_row < args.num_rows && args.row_begin(table_row) <= begin &&
      args.row_begin(table_row + 1) > begin) {
    return table_row;
  }
  return row_holding(args.row_map, args.num_rows, begin);
}

template <class Shape, class Args>
__global__ void __launch_bounds__(Shape::kBlockThreads)
    nonzero_split_spmv_kernel(Args args, NonzeroRuns<typename Args::value_type> runs) {
  using T = typename Args::value_type;
  using Ordinal = typename Args::ordinal_type;
  constexpr int kBlockThreads = Shape::kBlockThreads;
  constexpr int kRunEntries = Shape::kRunEntries;
  constexpr std::int64_t kBlockEntries = std::int64_t{kBlockThreads} * kRunEntries;
  __shared__ T s_carry_sums[kBlockThreads];
  __shared__ SegmentedScanStorage<T, kBlockThreads, std::int64_t> s_scan;
  __shared__ T s_block_head;
  __shared__ std::int64_t s_block_head_row;  // -1: no row from an earlier block ends here
  __shared__ std::int64_t s_last_row;        // the last thread's open row

  const std::int64_t num_rows = args.num_rows;
  const std::int64_t num_entries = args.row_begin(num_rows);
  const std::int64_t block_begin = blockIdx.x * kBlockEntries;
  const std::int64_t block_end = min(block_begin + kBlockEntries, num_entries);
  const std::int64_t run = blockIdx.x * static_cast<std::int64_t>(kBlockThreads) + threadIdx.x;
  const std::int64_t begin = run * kRunEntries;
  const std::int64_t end = min(begin + kRunEntries, num_entries);
  // Whole runs are read in 16-byte loads where A's columns and values start on 16-byte boundaries.
  const bool aligned_runs = ((reinterpret_cast<std::uintptr_t>(args.entries) |
                              reinterpret_cast<std::uintptr_t>(args.values)) &
                             15) == 0;
  if (threadIdx.x == 0) s_block_head_row = -1;

  // A run past the last entry has no rows (unless there are no entries: run 0 then stores them).
  std::int64_t row = num_rows;
  T sum{};
  T head{};
  bool has_head = false;
  std::int64_t head_row = 0;
  std::int64_t head_row_begin = 0;
  if (begin < num_entries || begin == 0) {
    T products[kRunEntries];
    run_products<kRunEntries>(args, begin, end, aligned_runs, products);
    const auto* first_rows = static_cast<const Ordinal*>(runs.first_rows);
    row = begin < num_entries
              ? checked_first_row(args, static_cast<std::int64_t>(first_rows[run]), begin)
              : 0;
    head_row = row;
    head_row_begin = row < num_rows ? args.row_begin(row) : 0;
    bool head_open = head_row_begin < begin;
    const auto finish_row = [&] {
      if (head_open) {
        head = sum;
        has_head = true;
        head_open = false;
      } else {
        args.store(row, sum);
      }
      sum = T{};
      ++row;
    };
    // The rows ending in this run are row .. next_first - 1. Where they are at most a run's
    // entries and none is empty, their ends are read at once into a mask of the entries that end
    // a row, and the walk issues no load: lanes that end a row at an entry and lanes that do not
    // part for a few instructions, not for a round trip.
    const std::int64_t next_first =
        end < num_entries
            ? checked_first_row(args, static_cast<std::int64_t>(first_rows[run + 1]), end)
            : num_rows;
    const std::int64_t rows_ending = next_first - row;
    unsigned ends_mask = 0;
    bool ends_known = rows_ending <= kRunEntries;
    if (ends_known) {
#pragma unroll
      for (int j = 0; j < kRunEntries; ++j) {
        if (j < rows_ending) {
          const std::int64_t last = args.row_begin(row + 1 + j) - 1 - begin;  // in the run
          if (last < 0 || last >= kRunEntries) ends_known = false;  // an empty row before the run
          ends_mask |= 1u << (last & (kRunEntries - 1));
        }
      }
    }
    if (ends_known && __popc(ends_mask) == rows_ending) {
#pragma unroll
      for (int i = 0; i < kRunEntries; ++i) {
        sum += products[i];
        if ((ends_mask >> i) & 1u) finish_row();
      }
    } else {  // empty rows among them, or more rows than entries: each end read as it is reached
      std::int64_t row_end = row < num_rows ? args.row_begin(row + 1) : 0;
      const auto finish_and_advance = [&] {
        finish_row();
        if (row < num_rows) row_end = args.row_begin(row + 1);
      };
#pragma unroll
      for (int i = 0; i < kRunEntries; ++i) {
        if (begin + i < end) {
          while (row_end <= begin + i) finish_and_advance();
          sum += products[i];
        }
      }
      // The row ending with the run, and the empty rows after it.
      while (row < num_rows && row_end <= end) finish_and_advance();
    }
  }

  // Pieces of rows cut between threads: the carries of the threads before this one that ended
  // inside its head row. `row` is the open row (the next run's first row where none is open).
  s_carry_sums[threadIdx.x] = block_segmented_inclusive_sum<kBlockThreads>(row, sum, s_scan);
  if (threadIdx.x == kBlockThreads - 1) s_last_row = row;
  __syncthreads();
  if (has_head) {
    const T joined = threadIdx.x > 0 ? s_carry_sums[threadIdx.x - 1] + head : head;
    if (head_row_begin < block_begin) {  // began in an earlier block
      s_block_head = joined;
      s_block_head_row = head_row;
    } else {
      args.store(head_row, joined);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 32) return;

  // Rows cut between blocks: a row spanning blocks a..b is joined from the carries of a..b-1 and
  // b's head.
  const auto block_of = [](std::int64_t entry) { return entry / kBlockEntries; };
  const std::int64_t block = blockIdx.x;
  const auto join = [&](std::int64_t cut_row, std::int64_t first_block, std::int64_t last_block) {
    join_row_pieces(
        args, runs.arrivals + last_block, cut_row, first_block, last_block, [&](std::int64_t b) {
          return load_coherent(b < last_block ? runs.carry_pieces + b : runs.head_pieces + b);
        });
  };
  const std::int64_t block_head_row = s_block_head_row;
  if (block_head_row >= 0) {
    if (threadIdx.x == 0) runs.head_pieces[block] = s_block_head;
    join(block_head_row, block_of(args.row_begin(block_head_row)), block);
  }
  const std::int64_t open_row = s_last_row;
  if (open_row < num_rows) {
    const std::int64_t open_begin = args.row_begin(open_row);
    const std::int64_t open_end = args.row_begin(open_row + 1);
    if (open_begin < block_end && open_end > block_end) {
      if (threadIdx.x == 0) runs.carry_pieces[block] = s_carry_sums[kBlockThreads - 1];
      join(open_row, block_of(open_begin), block_of(open_end - 1));
    }
  }
}

}  // namespace kspmv::cuda::detail
