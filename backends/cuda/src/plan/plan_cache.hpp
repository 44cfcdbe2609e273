#pragma once
// Plans kept for calls without a handle: a bounded, thread-safe map from (device, stream, A's sizes
// and arrays) to the plan state an earlier call made for them, most recently used first.
//
// A matrix freed and another allocated at the same addresses with the same sizes would find the
// first one's plan. So a cached plan must be right for any structure of its sizes: it is made with
// its Adaptive blocks checking their boundaries against the row map on the device (its analysis
// then only steers speed), and its other kernel, Vector, needs nothing from the analysis. One plan
// per stream, because a plan's scratch serves one stream at a time.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "device/cuda_check.hpp"
#include "kspmv/cuda/stream_capture.hpp"

namespace kspmv::cuda::detail {

// Every cache, so that release_cached_plans() can empty them all.
class PlanCacheRegistry {
 public:
  static PlanCacheRegistry& instance() {
    static PlanCacheRegistry registry;
    return registry;
  }
  void add(std::function<void()> clear) {
    const std::lock_guard<std::mutex> lock(mutex_);
    clears_.push_back(std::move(clear));
  }
  void clear_all() {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& clear : clears_) clear();
  }

 private:
  std::mutex mutex_;
  std::vector<std::function<void()>> clears_;
};

template <class State, class Matrix>
class PlanCache {
 public:
  static constexpr std::size_t kCapacity = 16;

  static PlanCache& instance() {
    static PlanCache* cache = [] {
      auto* made = new PlanCache;  // never destroyed: emptied by release_cached_plans()
      PlanCacheRegistry::instance().add([made] { made->clear(); });
      return made;
    }();
    return *cache;
  }

  // The plan for A on `stream`, made now (allocation, analysis, a wait for the stream) when there
  // is none; nullptr when there is none and the stream is being captured into a graph, where
  // neither the allocation nor the wait is allowed.
  template <class Make>
  std::shared_ptr<State> find_or_make(const Matrix& A, cudaStream_t stream, Make&& make) {
    const Key key = key_of(A, stream);
    if (auto found = find(key)) return found;
    if (is_capturing(stream)) return nullptr;
    std::shared_ptr<State> made = make();
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : entries_) {
      if (entry.first == key) return entry.second;  // another thread made one meanwhile
    }
    entries_.emplace_front(key, made);
    if (entries_.size() > kCapacity) entries_.pop_back();
    return made;
  }

  void clear() {
    std::list<std::pair<Key, std::shared_ptr<State>>> dropped;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      dropped.swap(entries_);
    }
  }

 private:
  struct Key {
    int device;
    cudaStream_t stream;
    std::int64_t rows, cols, entries;
    const void* row_map;
    const void* column_indices;
    bool operator==(const Key& other) const {
      return device == other.device && stream == other.stream && rows == other.rows &&
             cols == other.cols && entries == other.entries && row_map == other.row_map &&
             column_indices == other.column_indices;
    }
  };

  static Key key_of(const Matrix& A, cudaStream_t stream) {
    int device = 0;
    KSPMV_CUDA_CHECK(cudaGetDevice(&device));
    return {device,
            stream,
            static_cast<std::int64_t>(A.num_rows),
            static_cast<std::int64_t>(A.num_cols),
            static_cast<std::int64_t>(A.num_entries),
            A.row_map,
            A.entries};
  }

  std::shared_ptr<State> find(const Key& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
      }
    }
    return nullptr;
  }

  std::mutex mutex_;
  std::list<std::pair<Key, std::shared_ptr<State>>> entries_;
};

}  // namespace kspmv::cuda::detail
