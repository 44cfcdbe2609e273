#pragma once
// Several vectors at once (rank-2 calls): a group of lanes per row reads each entry of A once for
// up to Width vectors. The row's entries are dealt to `slots` slots in turn (entry e to slot e %
// slots); a slot's lanes each multiply a pack of Args::kVectorsPerLane neighbouring vectors (one,
// or 2 doubles / 4 floats of a contiguous x row, read at once where aligned: vector_pack.cuh), so
// lane = slot * (Width / pack) + vector / pack, and a slot's lanes read x(column, 0..Width)
// together (one contiguous read in LayoutRight). The group loads a batch of entries at once
// (kEntriesPerLane a lane, coalesced), hands them to the slots by shuffles, and issues the x loads
// of several steps together; at the end the slots' sums are added in a fixed tree order:
// deterministic, like every kernel here, and the same bits whatever the pack, since the slots and
// their order do not depend on it. A group takes `rows` rows in turn (1 or kGroupRows: the plan's
// group_rows), their starts and first entries loaded together, so that a row's DRAM round trips
// overlap its neighbour's (launch_shapes.hpp); a row's sums do not depend on which group takes it.
// Rows longer than `longest_own_row` are skipped: long_row_chunks.cuh shares them out over warps,
// in the same launch (vector_group_launch.cuh).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/device_scalar.cuh"
#include "device/vector_pack.cuh"
#include "kernels/launch_shapes.hpp"
#include "kernels/spmv_arguments.cuh"

namespace kspmv::cuda::detail {

// Lanes of a slot: one for each pack of the Width vectors.
template <class Args>
inline constexpr int kLanesPerSlot = Args::kVectors / Args::kVectorsPerLane;

// Entries a lane holds of each batch: one entry per vector of its pack, and at least
// kGroupStepsPerBatch steps' worth (kGroupStepsPerBatch / (Width / pack)) for narrow groups, so
// that a batch of a row is slots * max(Width, 8 * pack) entries and a row takes few batches in
// turn.
template <class Args>
inline constexpr int kEntriesPerLane =
    kGroupStepsPerBatch / kLanesPerSlot<Args> > Args::kVectorsPerLane
        ? kGroupStepsPerBatch / kLanesPerSlot<Args>
        : Args::kVectorsPerLane;

// Steps of a batch whose x loads are in flight together, packs included; never more than a batch
// has, as the steps past a batch load x for nothing.
template <class Args>
inline constexpr int kLoadsInFlight = kGroupLoadsInFlight<typename Args::value_type>;
template <class Args>
inline constexpr int kStepsPerBatch =
    (Args::kVectors / Args::kVectorsPerLane) * kEntriesPerLane<Args>;
template <class Args>
inline constexpr int kStepsInFlight =
    kLoadsInFlight<Args> < kStepsPerBatch<Args> ? kLoadsInFlight<Args> : kStepsPerBatch<Args>;

// Where a lane sits in its group of slots * (Width / pack) lanes: lane = slot * (Width / pack) +
// vector / pack. Worked out once per kernel with shifts, as is the column of x its pack reads: the
// per-step address is then one multiply-add (DR-12).
template <class Args>
struct GroupLane {
  using T = typename Args::value_type;
  static constexpr int kPack = Args::kVectorsPerLane;
  int lanes;
  int batch_entries;  // lanes * kEntriesPerLane
  int slot_shift;     // log2(slots), spelled with Args:: below: __ffs exists in device code only
  int lane;
  int slot;
  int vector;         // the first of the lane's pack
  int vectors;        // of its pack, below num_vectors: kPack but where the call's last pack is cut
  bool active;        // vectors > 0
  const T* x_column;  // x(0, vector); vector 0's where inactive, so that every lane may load

  __device__ GroupLane(const Args& args, int slots, int lane_in_group)
      : lanes(slots * kLanesPerSlot<Args>),
        batch_entries(lanes * kEntriesPerLane<Args>),
        slot_shift(__ffs(lanes / (Args::kVectors / Args::kVectorsPerLane)) - 1),
        lane(lane_in_group),
        slot(lane_in_group / kLanesPerSlot<Args>),
        vector(lane_in_group % kLanesPerSlot<Args> * kPack),
        vectors(min(kPack, max(0, args.num_vectors - vector))),
        active(vectors > 0),
        x_column(args.x + (active ? vector * args.x_col_stride : 0)) {}
};

template <class Args>
using LaneSums = Pack<typename Args::value_type, Args::kVectorsPerLane>;

// The lane's elements of x's row `column`.
template <class Args>
__device__ inline Pack<typename Args::value_type, Args::kVectorsPerLane> load_x(
    const Args& args, const GroupLane<Args>& me, std::int64_t column) {
  const auto* row = me.x_column + column * args.x_stride;
  if constexpr (Args::kPackLoads == PackLoads::Together) {
    return load_pack_readonly<Args::kVectorsPerLane>(row);
  } else {
    return load_apart_readonly<Args::kVectorsPerLane>(row, args.x_col_stride, me.vectors);
  }
}

// A lane's entries of a batch (kEntriesPerLane): entry lane + j * lanes of the batch in place j.
template <class Args>
struct LaneEntries {
  static constexpr int kCount = kEntriesPerLane<Args>;
  typename Args::ordinal_type column[kCount];
  typename Args::value_type value[kCount];

  // Place j takes place j + shift's entry (the places below `shift` are done with).
  __device__ void drop(int shift) {
#pragma unroll
    for (int j = 0; j + shift < kCount; ++j) {
      column[j] = column[j + shift];
      value[j] = value[j + shift];
    }
  }
};

// sums += the products of this lane's vectors with the entries of a batch its slot takes: entry
// step * slots + slot of the batch, which lane (step % (Width / pack)) * slots + slot holds in
// place step / (Width / pack). Every lane loads x on every step (a lane past the batch holds
// column 0, and its product is not added): no branch per step. The places a group of steps is done
// with are dropped after it, so that every place is named at compile time.
template <class Args>
__device__ inline void multiply_batch(const Args& args, const GroupLane<Args>& me,
                                      LaneEntries<Args> entries, int batch_length,
                                      LaneSums<Args>& sums) {
  using T = typename Args::value_type;
  constexpr int kSteps = kStepsInFlight<Args>;
  constexpr int kPack = Args::kVectorsPerLane;
  constexpr int kSlotLanes = kLanesPerSlot<Args>;
  // The same number of steps in every lane of the warp, as the shuffles need.
  const int steps = (warp_max(batch_length) + (1 << me.slot_shift) - 1) >> me.slot_shift;
  for (int first = 0; first < steps; first += kSteps) {
    T values[kSteps];
    Pack<T, kPack> xs[kSteps];
    bool taken[kSteps];
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int place = kSteps > kSlotLanes ? s / kSlotLanes : 0;
      const int step = first + s;
      const int source = ((step & (kSlotLanes - 1)) << me.slot_shift) + me.slot;
      const auto source_column =
          static_cast<std::int64_t>(shuffle(entries.column[place], source, me.lanes));
      values[s] = shuffle(entries.value[place], source, me.lanes);
      taken[s] = me.active && (step << me.slot_shift) + me.slot < batch_length;
      xs[s] = load_x(args, me, source_column);
    }
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      if (taken[s]) {
#pragma unroll
        for (int v = 0; v < kPack; ++v) sums.part[v] += values[s] * xs[s].part[v];
      }
    }
    if constexpr (LaneEntries<Args>::kCount > 1) {
      if (kSteps >= kSlotLanes) {
        entries.drop(kSteps / kSlotLanes);
      } else if (((first + kSteps) & (kSlotLanes - 1)) == 0) {
        entries.drop(1);
      }
    }
  }
}

template <class Args>
__device__ inline void load_entry(const Args& args, std::int64_t entry, std::int64_t end,
                                  typename Args::ordinal_type& column,
                                  typename Args::value_type& a) {
  column = {};
  a = {};
  if (entry < end) {
    column = args.column(entry);
    a = conjugate_if(args.value(entry), args.conjugate);
  }
}

// The lane's entries of the batch that starts at `batch` (entries past `end` hold column 0).
template <class Args>
__device__ inline LaneEntries<Args> load_entries(const Args& args, const GroupLane<Args>& me,
                                                 std::int64_t batch, std::int64_t end) {
  LaneEntries<Args> entries;
#pragma unroll
  for (int j = 0; j < LaneEntries<Args>::kCount; ++j) {
    load_entry(args, batch + me.lane + j * me.lanes, end, entries.column[j], entries.value[j]);
  }
  return entries;
}

inline __device__ int batch_length(std::int64_t batch, std::int64_t end, int batch_entries) {
  const std::int64_t left = end - batch;
  return left <= 0 ? 0 : left < batch_entries ? static_cast<int>(left) : batch_entries;
}

// sums += the products of this lane's vectors with the entries [batch, end) of its group's row, a
// batch at a time. Every lane of the warp calls it, as the shuffles need.
template <class Args>
__device__ inline void multiply_entries(const Args& args, const GroupLane<Args>& me,
                                        std::int64_t batch, std::int64_t end,
                                        LaneSums<Args>& sums) {
  for (; __any_sync(0xffffffffu, batch < end); batch += me.batch_entries) {
    multiply_batch(args, me, load_entries(args, me, batch, end),
                   batch_length(batch, end, me.batch_entries), sums);
  }
}

// Each vector's sums over the slots of a group, added in a fixed tree order (slots / 2 apart,
// then slots / 4, ...): the totals are in the group's first slot.
template <class Args>
__device__ inline void add_slots(LaneSums<Args>& sums, const GroupLane<Args>& me) {
  for (int offset = me.lanes / 2; offset >= kLanesPerSlot<Args>; offset /= 2) {
#pragma unroll
    for (int v = 0; v < Args::kVectorsPerLane; ++v) {
      sums.part[v] += shuffle_down(sums.part[v], offset, me.lanes);
    }
  }
}

// y(row, vector .. vector + vectors) from the lane's sums, by the group's first slot.
template <class Args>
__device__ inline void store_sums(const Args& args, const GroupLane<Args>& me, std::int64_t row,
                                  const LaneSums<Args>& sums) {
#pragma unroll
  for (int v = 0; v < Args::kVectorsPerLane; ++v) {
    if (v < me.vectors) args.store(row, me.vector + v, sums.part[v]);
  }
}

// A group of slots * (Width / pack) lanes takes `rows` rows (1 to kGroupRows) from row rows *
// (thread / lanes) on; thread counts the launch's threads that take rows.
template <class Args>
__device__ inline void multiply_group_rows(const Args& args, int slots, int rows,
                                           std::int64_t longest_own_row, std::int64_t thread) {
  const int lanes = slots * kLanesPerSlot<Args>;
  const std::int64_t first_row = (thread >> (__ffs(lanes) - 1)) * rows;
  const std::int64_t end_row = first_row + rows < args.num_rows ? first_row + rows : args.num_rows;
  const GroupLane<Args> me(args, slots, static_cast<int>(threadIdx.x) & (lanes - 1));
  // Places past the group's rows are empty (they start where its rows end) and still take part:
  // the shuffles below need the whole warp.
  std::int64_t starts[kGroupRows + 1];
#pragma unroll
  for (int r = 0; r <= kGroupRows; ++r) {
    starts[r] = args.row_begin(first_row + r < end_row ? first_row + r : end_row);
  }
  std::int64_t ends[kGroupRows];
  bool mine[kGroupRows];
  LaneEntries<Args> first_batches[kGroupRows];
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) {
    const bool own_row = starts[r + 1] - starts[r] <= longest_own_row;
    ends[r] = own_row ? starts[r + 1] : starts[r];
    mine[r] = own_row && me.slot == 0 && me.active && first_row + r < end_row;
    first_batches[r] = load_entries(args, me, starts[r], ends[r]);
    if (mine[r]) {
#pragma unroll
      for (int v = 0; v < Args::kVectorsPerLane; ++v) {
        if (v < me.vectors) args.prefetch_y(first_row + r, me.vector + v);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) {
    if (r == rows) break;  // the same in every lane: a launch's groups take as many rows
    const std::int64_t end = ends[r];
    LaneSums<Args> sums{};
    multiply_batch(args, me, first_batches[r], batch_length(starts[r], end, me.batch_entries),
                   sums);
    multiply_entries(args, me, starts[r] + me.batch_entries, end, sums);
    add_slots(sums, me);
    if (mine[r]) store_sums(args, me, first_row + r, sums);
  }
}

}  // namespace kspmv::cuda::detail
