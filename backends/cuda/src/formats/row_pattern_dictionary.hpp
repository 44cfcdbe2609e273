#pragma once
// The layout and hash of the row patterns' dictionary, and the host's half of building it
// (row_patterns.cuh): from the sampled rows' distances,
// the dictionary of the patterns seen in two sampled rows or more, the most frequent first while
// they fit kMostPatternEntries, and its lookup table. A matrix whose sampled rows do not repeat
// (random columns) gets an empty dictionary, and the plan stops there.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace kspmv::cuda::detail {

inline constexpr std::int64_t kPatternSampleRows = 1024;
inline constexpr int kLongestSampledPattern = 64;  // longer sampled rows join no pattern
// 16 KB of distances: a dictionary that stays in L1, and starts that stay below kEscapedRow.
inline constexpr std::int64_t kMostPatternEntries = 4096;

// The dictionary's lookup table: open addressing on a row's hash, a power of two slots with at
// least one free (start < 0).
struct PatternSlot {
  std::uint32_t hash;
  std::int32_t start;
  std::int32_t length;
};

// Entry `position` of a row at `distance` from it contributes this to the row's hash, which sums
// the contributions (so a group of lanes may add them in any order). 32 bits (lowbias32's
// finaliser): a collision costs one more comparison, never a wrong match, for every match is
// checked entry by entry.
__host__ __device__ inline std::uint32_t pattern_hash_term(std::int32_t distance,
                                                           std::int64_t position) {
  std::uint32_t z = static_cast<std::uint32_t>(distance) * 0x9e3779b1u +
                    static_cast<std::uint32_t>(position) * 0x85ebca77u;
  z = (z ^ (z >> 16)) * 0x7feb352du;
  z = (z ^ (z >> 15)) * 0x846ca68bu;
  return z ^ (z >> 16);
}

struct RowPatternDictionary {
  std::vector<std::int32_t> distances;  // the patterns one after another
  std::vector<PatternSlot> slots;       // empty where there is no pattern
  std::int64_t patterns = 0;
};

// lengths[i]: sampled row i's length (-1: it joins no pattern); its distances from
// sampled_distances[i * kLongestSampledPattern].
inline RowPatternDictionary row_pattern_dictionary(const std::int32_t* lengths, std::size_t sampled,
                                                   const std::int32_t* sampled_distances) {
  std::map<std::vector<std::int32_t>, std::int64_t> sightings;
  for (std::size_t i = 0; i < sampled; ++i) {
    if (lengths[i] <= 0) continue;  // an empty row needs no pattern
    const std::int32_t* first = sampled_distances + i * kLongestSampledPattern;
    ++sightings[std::vector<std::int32_t>(first, first + lengths[i])];
  }
  std::vector<std::pair<std::int64_t, const std::vector<std::int32_t>*>> repeated;
  for (const auto& [pattern, count] : sightings) {
    if (count >= 2) repeated.emplace_back(count, &pattern);
  }
  std::stable_sort(repeated.begin(), repeated.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });

  RowPatternDictionary dictionary;
  std::vector<std::pair<std::int32_t, std::int32_t>> kept;  // start, length
  for (const auto& [count, pattern] : repeated) {
    if (static_cast<std::int64_t>(dictionary.distances.size() + pattern->size()) >
        kMostPatternEntries) {
      continue;
    }
    kept.emplace_back(static_cast<std::int32_t>(dictionary.distances.size()),
                      static_cast<std::int32_t>(pattern->size()));
    dictionary.distances.insert(dictionary.distances.end(), pattern->begin(), pattern->end());
  }
  dictionary.patterns = static_cast<std::int64_t>(kept.size());
  if (kept.empty()) return dictionary;

  std::size_t slot_count = 2;
  while (slot_count < 2 * kept.size()) slot_count *= 2;
  dictionary.slots.assign(slot_count, PatternSlot{0, -1, 0});
  for (const auto& [start, length] : kept) {
    std::uint32_t hash = 0;
    for (std::int32_t k = 0; k < length; ++k) {
      hash += pattern_hash_term(dictionary.distances[static_cast<std::size_t>(start + k)], k);
    }
    std::size_t slot = hash & (slot_count - 1);
    while (dictionary.slots[slot].start >= 0) slot = (slot + 1) & (slot_count - 1);
    dictionary.slots[slot] = PatternSlot{hash, start, length};
  }
  return dictionary;
}

}  // namespace kspmv::cuda::detail
