#include "plan/choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "device/pack_width.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {
namespace {

bool is_regular(const PlanInputs& inputs) {
  const LaunchPolicy& policy = inputs.device.policy;
  return static_cast<double>(inputs.matrix.longest_row) <=
         policy.irregular_row_factor * inputs.matrix.mean_row_length() + policy.irregular_row_slack;
}

// Nine in ten entries gather x from a window that an SM's L1 holds (the policy's bytes).
bool columns_local(const PlanInputs& inputs) {
  const MatrixFacts& matrix = inputs.matrix;
  return matrix.column_reach_known() && 2 * matrix.column_reach * inputs.types.sum_bytes <=
                                            inputs.device.policy.vector_local_x_window_bytes;
}

// Irregular rows that still keep Vector's warps busy: its load slots mostly filled, and no row
// whose walk by one group outlasts the call (the GPU's warp slots share the warps' steps).
bool irregular_rows_fill_vector(const PlanInputs& inputs) {
  const MatrixFacts& matrix = inputs.matrix;
  const LaunchPolicy& policy = inputs.device.policy;
  const std::int64_t step_entries = batched_vector_step_entries(matrix.mean_row_length());
  const std::int64_t longest_row_steps = (matrix.longest_row + step_entries - 1) / step_entries;
  return matrix.vector_step_fill() >= policy.vector_irregular_min_step_fill &&
         longest_row_steps * inputs.warp_slots() <= matrix.vector_warp_steps;
}

// The forms a plan running `algorithm` tries, in order, or none and why. Only kernels that know an
// entry's row before they read its column (Vector, Scalar) can decode a compressed form; a cached
// plan may later serve another structure at the same addresses; below the latency bound a call
// waits on its chain of loads, not on their bytes. Row patterns first (fewer bytes; on the 27-point
// stencil faster than the deltas in fp64 and fp32; DR-24, DR-25), except under single precision
// values with double precision sums on a device of high bandwidth a multiprocessor. Complex values
// follow the real ones, unmeasured.
void choose_column_forms(const PlanInputs& inputs, Choice& choice) {
  const Compression asked = inputs.request.compression;
  const auto own = [&](const std::string& why) {
    choice.own_columns_note = "A's own (" + why + ")";
  };
  if (asked == Compression::Never) {
    own("compression not allowed");
  } else if (choice.algorithm != Algorithm::Vector && choice.algorithm != Algorithm::Scalar) {
    own(to_string(choice.algorithm) + " reads columns before it knows their rows");
  } else if (inputs.request.cached) {
    own("a plan cached for calls without a handle");
  } else if (inputs.matrix.entries == 0) {
    own("no entries");
  } else if (asked == Compression::Auto && inputs.latency_bound()) {
    own("latency-bound: fewer than " + std::to_string(inputs.device.policy.latency_bound_entries) +
        " entries");
  } else if (asked == Compression::RowPatterns) {
    choice.column_forms = {ColumnForm::RowPatterns};
  } else if (asked == Compression::ColumnDeltas) {
    choice.column_forms = {ColumnForm::ColumnDeltas};
  } else if (inputs.types.widened_values &&
             inputs.device.dram_bytes_per_second_per_sm() >
                 inputs.device.policy.widened_value_patterns_max_bandwidth_per_sm) {
    choice.column_forms = {ColumnForm::ColumnDeltas, ColumnForm::RowPatterns};
  } else {
    choice.column_forms = {ColumnForm::RowPatterns, ColumnForm::ColumnDeltas};
  }
}

std::string one_decimal(double value) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << value;
  return text.str();
}

std::string gigabytes_text(double bytes) {
  return one_decimal(bytes * 1e-9);
}

// The threads of a group-kernel launch whose groups take `rows` rows each, in `slots` slots of
// `lanes` lanes.
std::int64_t group_threads(const PlanInputs& inputs, int slots, int lanes, int rows = kGroupRows) {
  const std::int64_t groups = (inputs.matrix.rows + rows - 1) / rows;
  return groups * slots * lanes;
}

std::int64_t resident_threads(const PlanInputs& inputs) {
  return inputs.device.multiprocessors * inputs.device.policy.resident_group_threads_per_sm;
}

// Whether every group of such a launch is resident at once.
bool groups_resident(const PlanInputs& inputs, int slots, int lanes, int rows) {
  return group_threads(inputs, slots, lanes, rows) <= resident_threads(inputs);
}

// Whether a slot would walk the longest row in more steps than its lanes have x loads in flight
// (packs are real values: kGroupLoadsInFlight of double).
bool longest_row_outwalks(const PlanInputs& inputs, int slots) {
  return inputs.matrix.longest_row > slots * kGroupLoadsInFlight<double>;
}

// The lanes of a slot: one a vector, or one a pack of vectors.
int lanes_per_slot(const ValueTypes& types, int width, bool packs) {
  return packs ? width / pack_for_width(types.real, types.sum_bytes, width) : width;
}

// Auto's Vector on a latency-bound matrix, rank 2: the most slots whose threads stay within the
// resident ones, at least Vector's lanes, at most a warp's lanes a row. Past the slots whose
// `width` lanes fill a warp (one vector a lane), packs of vectors take more only while a slot would
// walk the longest row in more steps than its lanes have x loads in flight: on short rows more
// slots only add lanes and a longer tree of shuffles, on long rows they shorten each lane's chain
// of loads (DR-64). Nor do slots grow past those whose groups of one row are all resident unless
// the longest row outwalks them: the groups would then take two rows in turn (group_rows), and the
// second row's chain of loads costs more than the slots save where one slot's loads hold the
// longest row already (DR-68).
int resident_group_slots(const PlanInputs& inputs, const Choice& choice, int width, bool packs) {
  const int lanes = lanes_per_slot(inputs.types, width, packs);
  const auto more_slots_pay = [&](int slots) {
    return slots * width < 32 || longest_row_outwalks(inputs, slots);
  };
  const auto room_for_more = [&](int slots) {
    return groups_resident(inputs, 2 * slots, lanes, 1) ||
           (longest_row_outwalks(inputs, slots) &&
            groups_resident(inputs, 2 * slots, lanes, kGroupRows));
  };
  int slots = std::max(1, choice.vector_lanes / width);
  while (slots * lanes < 32 && more_slots_pay(slots) && room_for_more(slots)) slots *= 2;
  return slots;
}

}  // namespace

std::int64_t long_row_chunk_entries(const LaunchPolicy& policy,
                                    std::int64_t long_row_entries_in_all,
                                    std::int64_t multiprocessors, int warps_per_sm) {
  std::int64_t entries = policy.long_row_chunk_entries;
  while (entries > policy.shortest_long_row_chunk &&
         long_row_entries_in_all / entries < multiprocessors * warps_per_sm) {
    entries /= 2;
  }
  return entries;
}

// Below the latency bound: one launch, and no group walking its longest row for long. Above it:
// Vector for regular rows of a mean long enough for its batches, or of any mean where the columns
// are local (Vector's x reads stay in L1, which Adaptive's staging shares), and for irregular rows
// with local columns that fill Vector's warps; Adaptive otherwise.
Algorithm auto_algorithm(const PlanInputs& inputs) {
  const MatrixFacts& matrix = inputs.matrix;
  const LaunchPolicy& policy = inputs.device.policy;
  if (inputs.latency_bound()) {
    const std::int64_t lanes = vector_lanes_for(matrix.mean_row_length());
    return (matrix.longest_row + lanes - 1) / lanes <= policy.vector_longest_row_steps
               ? Algorithm::Vector
               : Algorithm::Adaptive;
  }
  if (is_regular(inputs)) {
    return matrix.mean_row_length() >= policy.vector_mean_row_length || columns_local(inputs)
               ? Algorithm::Vector
               : Algorithm::Adaptive;
  }
  return columns_local(inputs) && irregular_rows_fill_vector(inputs) ? Algorithm::Vector
                                                                     : Algorithm::Adaptive;
}

Choice choose(const PlanInputs& inputs) {
  const MatrixFacts& matrix = inputs.matrix;
  Choice choice;
  choice.regular_rows = is_regular(inputs);
  choice.algorithm = inputs.request.algorithm == Algorithm::Auto ? auto_algorithm(inputs)
                                                                 : inputs.request.algorithm;
  // Irregular rows keep registers for x gathers in flight where the sums are wider than 4 bytes. At
  // 8 blocks against 6, real single precision ran faster on every irregular generated shape with
  // local columns and no slower on random columns, the power-law and few-dense-rows families;
  // double precision ran faster only within 256 columns of the diagonal, and slower from 1024 on
  // and on few dense rows (DR-35).
  const bool single_precision_sums = inputs.types.real && inputs.types.sum_bytes == 4;
  choice.adaptive_blocks_per_sm = choice.regular_rows || single_precision_sums
                                      ? 8
                                      : adaptive_irregular_blocks_per_sm(inputs.types.sum_bytes);
  if (choice.algorithm == Algorithm::Vector) {
    choice.vector_lanes = vector_lanes_for(matrix.mean_row_length());
    // A latency-bound call waits on each row's chain of loads, and more lanes a row start more
    // rows' chains at once: with batched lanes (8-16 times fewer threads) the small real matrices
    // ran slower (DR-19).
    choice.single_vector_lanes = inputs.latency_bound()
                                     ? choice.vector_lanes
                                     : batched_vector_lanes_for(matrix.mean_row_length());
  }
  // Irregular rows with rows too long for a group of lanes are shared out over warps in rank-2
  // calls; not by a cached plan, whose table would list another structure's rows, nor for
  // MergePath, whose calls take one vector a pass.
  if (!choice.regular_rows && matrix.long_rows > 0 && !inputs.request.cached &&
      choice.algorithm != Algorithm::MergePath) {
    choice.long_row_chunk_entries =
        long_row_chunk_entries(inputs.device.policy, matrix.long_row_entries_in_all,
                               inputs.device.multiprocessors, kVectorGroupBlockThreads / 32);
  }
  choose_column_forms(inputs, choice);
  return choice;
}

std::string refusal_before_build(const PlanInputs& inputs, ColumnForm form, std::size_t bytes,
                                 std::size_t held) {
  const std::size_t limit = inputs.request.workspace_limit;
  if (held + bytes > limit) {
    return "the " + std::to_string(bytes) + " bytes of " + form_name(form) +
           " would pass the workspace limit of " + std::to_string(limit);
  }
  if (form != ColumnForm::ColumnDeltas || inputs.request.compression != Compression::Auto) {
    return "";
  }
  if (inputs.matrix.column_reach > kDeltaReach + 1) {  // a power of two: 2^15 passes
    return "sampled columns lie too far from the diagonal for 16 bits";
  }
  // The reach counts from the diagonal (slope cols / rows), the deltas from the row: on a
  // rectangular matrix they part by up to |rows - cols| (2M x 256: every delta escaped, after a
  // whole build for nothing, DR-31).
  const std::int64_t drift = std::abs(inputs.matrix.rows - inputs.matrix.cols);
  if (inputs.matrix.column_reach + drift > kDeltaReach + 1) {
    return "columns counted from the row lie too far for 16 bits (" +
           std::to_string(inputs.matrix.rows) + " rows, " + std::to_string(inputs.matrix.cols) +
           " columns)";
  }
  const double bandwidth_per_sm = inputs.device.dram_bytes_per_second_per_sm();
  const double most = inputs.device.policy.double_value_deltas_max_bandwidth_per_sm;
  if (inputs.types.double_values && bandwidth_per_sm > most) {
    return "double precision values on a device of " + gigabytes_text(bandwidth_per_sm) +
           " GB/s of DRAM a multiprocessor, more than " + gigabytes_text(most) +
           ": there the 16-bit deltas' kernel waits on latency, not on bytes";
  }
  return "";
}

bool keeps_escaped(const PlanInputs& inputs, std::int64_t escaped_entries) {
  return inputs.request.compression != Compression::Auto ||
         escaped_entries * inputs.device.policy.entries_per_escaped_entry <= inputs.matrix.entries;
}

// One where MergePath runs, or where rows are irregular and either a cached plan cannot share out
// the long ones (the group kernel walking a long row with one group of lanes ran many times slower
// than Adaptive on the power-law matrix, DR-10) or x is LayoutLeft on a matrix large enough to be
// bandwidth-bound (power-law fp32, k = 8: faster in single-vector passes than in groups of 3,
// DR-11; below, where a call costs little more than its launches, k passes ran well behind the best
// cuSPARSE SpMM on the small irregular matrices of the suite, DR-14). In LayoutRight, where a row
// of x is one read, a whole group. In LayoutLeft each vector gathers from its own column of x, so a
// group runs from L2 only while the part of its columns that rows in flight reach (the column
// reach, both sides of the diagonal) fits in half of L2: 8 columns gathered at random from DRAM ran
// slower than 8 passes, each of whose column stayed in L2 (DR-10). A plan with a handle on a matrix
// past the latency bound reads LayoutLeft x through a row-major copy instead
// (reads_x_through_row_major_copy).
int vectors_per_pass(const PlanInputs& inputs, const Choice& choice, const XShape& x) {
  if (choice.algorithm == Algorithm::MergePath) return 1;
  if (!choice.regular_rows &&
      (inputs.request.cached || (x.col_stride != 1 && !inputs.latency_bound()))) {
    return 1;
  }
  if (x.col_stride == 1) return kMaxVectorsPerLaunch;
  const std::int64_t reach = inputs.matrix.column_reach;
  const std::int64_t reached_rows = reach >= x.rows / 2 ? x.rows : 2 * reach + 1;
  const auto column_bytes = std::max<std::int64_t>(1, reached_rows * inputs.types.sum_bytes);
  return static_cast<int>(
      std::clamp<std::int64_t>(inputs.device.l2_bytes / 2 / column_bytes, 1, kMaxVectorsPerLaunch));
}

// x's rows are not contiguous, a pass takes several vectors, and the matrix is large enough that
// the copy's launch is lost in the call. LayoutLeft gathers, a sector from each vector's column for
// every entry, ran several times slower than the same matrix in LayoutRight, and the copy costs one
// read and one write of x (DR-15). Not for a cached plan, whose later calls may not allocate.
bool reads_x_through_row_major_copy(const PlanInputs& inputs, const Choice& choice,
                                    const XShape& x) {
  return x.vectors > 1 && x.col_stride != 1 && choice.algorithm != Algorithm::MergePath &&
         !inputs.request.cached && !inputs.latency_bound();
}

namespace {

// A slot is `width` lanes, or fewer where each lane takes a pack of vectors. One slot for Scalar;
// Vector's own lanes (CUSP's rule) where Vector was asked for. A latency-bound matrix (a few
// microseconds a call) waits on each row's chain of loads, so it takes more: as many as the GPU's
// resident threads hold where Auto chose Vector (resident_group_slots), else a warp per row (one
// vector a lane). Otherwise (Auto's Vector on a bandwidth-bound matrix too: with x rows
// contiguous and a mean of 64 or more this gives Vector's lanes) as many slots as the mean row
// holds the policy's entries a slot, in powers of two. Fewer slots mean fewer steps whose cost is
// the row's (its sums added across slots, its loads, its stores) but fewer entries in flight.
int slots_a_row(const PlanInputs& inputs, const Choice& choice, int width, bool x_rows_contiguous,
                bool packs) {
  const bool vector = choice.algorithm == Algorithm::Vector;
  if (choice.algorithm == Algorithm::Scalar) return 1;
  if (vector && inputs.request.algorithm == Algorithm::Vector) {
    return std::max(1, choice.vector_lanes / width);
  }
  if (vector && inputs.latency_bound()) return resident_group_slots(inputs, choice, width, packs);
  if (inputs.latency_bound()) return 32 / width;
  const LaunchPolicy& policy = inputs.device.policy;
  const double entries_per_slot = x_rows_contiguous ? policy.group_slot_entries_contiguous_x
                                                    : policy.group_slot_entries_strided_x;
  int slots = 1;
  while (slots * width < 32 && 2 * slots * entries_per_slot <= inputs.matrix.mean_row_length()) {
    slots *= 2;
  }
  return slots;
}

}  // namespace

// Packs wherever x's rows are contiguous: one load of x serves several vectors (DR-64). LayoutLeft
// read in place (the matrix is below the latency bound, or a cached plan reads it) reads a pack one
// element a load, so there packs only pay below the latency bound, and only where one vector a lane
// would need more threads than the GPU holds resident, or where packs give a row more slots and the
// longest row needs them; otherwise one vector a lane (DR-66).
bool group_takes_packs(const PlanInputs& inputs, const Choice& choice, int width,
                       bool x_rows_contiguous) {
  if (x_rows_contiguous) return true;
  if (!inputs.latency_bound()) return false;
  const int one_a_lane = slots_a_row(inputs, choice, width, false, false);
  const bool more_slots_pay = slots_a_row(inputs, choice, width, false, true) > one_a_lane &&
                              longest_row_outwalks(inputs, one_a_lane);
  return more_slots_pay || !groups_resident(inputs, one_a_lane, width, kGroupRows);
}

int group_slots(const PlanInputs& inputs, const Choice& choice, int width, bool x_rows_contiguous) {
  return slots_a_row(inputs, choice, width, x_rows_contiguous,
                     group_takes_packs(inputs, choice, width, x_rows_contiguous));
}

// Where every group of one row is resident at once, the call lasts one group's chain of loads, and
// a second row in the same group only lengthens it; where they are not, a group's second row hides
// its first row's round trips (DR-10, DR-67).
int group_rows(const PlanInputs& inputs, const Choice& choice, int width, bool x_rows_contiguous) {
  const int lanes = lanes_per_slot(inputs.types, width,
                                   group_takes_packs(inputs, choice, width, x_rows_contiguous));
  const int slots = group_slots(inputs, choice, width, x_rows_contiguous);
  return groups_resident(inputs, slots, lanes, 1) ? 1 : kGroupRows;
}

}  // namespace kspmv::cuda::detail
