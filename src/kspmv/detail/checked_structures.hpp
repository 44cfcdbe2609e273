#pragma once
// The matrix structures that calls without a handle have checked (on backends that keep no plan
// for such calls), so that only a matrix's first call pays the CSR check: the last kCapacity
// structures, each known by its arrays' addresses and its sizes, the oldest forgotten first.
//
// A structure may come with a hold on its arrays (a copy of reference-counted Views): while it is
// remembered, its arrays cannot be freed, so no new matrix can take their addresses and pass as
// checked. Holds keep at most kHeldBytes of arrays alive together, dropping the oldest structures
// to make room; a structure larger than that, or without a hold (arrays the caller manages), is
// remembered by addresses and sizes alone, and a new matrix at a freed one's addresses and sizes
// counts as checked: the exception a handle documents too (arrays changed behind a check).

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace kspmv::detail {

struct StructureKey {
  const void* row_map = nullptr;
  const void* entries = nullptr;
  long long rows = 0;
  long long cols = 0;
  std::size_t num_entries = 0;

  bool operator==(const StructureKey& other) const {
    return row_map == other.row_map && entries == other.entries && rows == other.rows &&
           cols == other.cols && num_entries == other.num_entries;
  }
};

template <class CrsViewT>
StructureKey structure_key(const CrsViewT& A) {
  return {A.row_map().data(), A.entries().data(), static_cast<long long>(A.num_rows()),
          static_cast<long long>(A.num_cols()), A.num_entries()};
}

class CheckedStructures {
 public:
  static constexpr std::size_t kCapacity = 64;
  static constexpr std::size_t kHeldBytes = std::size_t{64} << 20;

  bool contains(const StructureKey& key) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : entries_) {
      if (entry.key == key) return true;
    }
    return false;
  }

  // Remembers `key`, keeping `hold` (which keeps the arrays of `bytes` alive) where it fits.
  void insert(const StructureKey& key, std::shared_ptr<const void> hold = nullptr,
              std::size_t bytes = 0) {
    if (!hold || bytes > kHeldBytes) {
      hold = nullptr;
      bytes = 0;
    }
    std::vector<std::shared_ptr<const void>> dropped;  // released after the lock: may free memory
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (const auto& entry : entries_) {
        if (entry.key == key) return;
      }
      while (!entries_.empty() &&
             (entries_.size() >= kCapacity || held_bytes_ + bytes > kHeldBytes)) {
        held_bytes_ -= entries_.back().bytes;
        dropped.push_back(std::move(entries_.back().hold));
        entries_.pop_back();
      }
      entries_.push_front({key, std::move(hold), bytes});
      held_bytes_ += bytes;
    }
  }

  // Forgets every structure and releases every hold (Kokkos' finalize: Views held past it could
  // not be freed).
  void clear() {
    std::deque<Entry> dropped;
    const std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(entries_);
    held_bytes_ = 0;
  }

  std::size_t held_bytes() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return held_bytes_;
  }

 private:
  struct Entry {
    StructureKey key;
    std::shared_ptr<const void> hold;
    std::size_t bytes = 0;
  };
  mutable std::mutex mutex_;
  std::deque<Entry> entries_;  // the newest first
  std::size_t held_bytes_ = 0;
};

// The process's one registry, never destroyed (a hold released at exit, after Kokkos' finalize,
// would free memory Kokkos no longer manages; the backend clears it at finalize).
inline CheckedStructures& checked_structures() {
  static auto* registry = new CheckedStructures;
  return *registry;
}

}  // namespace kspmv::detail
