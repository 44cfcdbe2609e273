#pragma once
// The matrix structures that calls without a handle have checked (on backends that keep no plan
// for such calls), so that only a matrix's first call pays the CSR check: the last kCapacity
// structures, each known by its arrays' addresses and its sizes, the oldest forgotten first. A
// structure whose arrays were freed and others allocated at the same addresses with the same sizes
// counts as checked: the exception a handle documents too (arrays changed behind a check).

#include <array>
#include <cstddef>
#include <mutex>

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

  bool contains(const StructureKey& key) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < count_; ++i) {
      if (keys_[i] == key) return true;
    }
    return false;
  }

  void insert(const StructureKey& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < count_; ++i) {
      if (keys_[i] == key) return;
    }
    keys_[next_] = key;
    next_ = (next_ + 1) % kCapacity;
    if (count_ < kCapacity) ++count_;
  }

 private:
  mutable std::mutex mutex_;
  std::array<StructureKey, kCapacity> keys_{};
  std::size_t next_ = 0;
  std::size_t count_ = 0;
};

// The process's one registry (a function-local static: made on first use, thread-safe).
inline CheckedStructures& checked_structures() {
  static CheckedStructures registry;
  return registry;
}

}  // namespace kspmv::detail
