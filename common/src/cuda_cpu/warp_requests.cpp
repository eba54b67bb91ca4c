#include "warp_requests.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace rooflab::cuda_cpu::detail {
namespace {
std::uint64_t next_keyed_serial = 1;  // only the launching thread runs kernels
}

WarpRequests::Request& WarpRequests::find(ThreadContext& lane, const void* pc, Space space, Operation operation) {
  if (lane.requests_serial != serial_) {  // the requests were counted since this lane's last access
    lane.requests_serial = serial_;
    lane.position = 0;
  }
  if (!keyed_) {
    const std::uint32_t position = lane.position++;
    if (position < requests_.size() && requests_[position].pc == pc) return requests_[position];
    if (position == requests_.size()) {
      Request& created = requests_.emplace_back();
      created.pc = pc;
      created.space = space;
      created.operation = operation;
      return created;  // its occurrence is counted when the requests are keyed
    }
    --lane.position;
    key_every_request();
  }
  if (lane.keyed_serial != keyed_serial_) {
    // The lane followed requests_[0, position) until now: that is its history.
    lane.occurrences.clear();
    for (std::uint32_t i = 0; i < lane.position && i < requests_.size(); ++i) ++lane.occurrences[requests_[i].pc];
    lane.keyed_serial = keyed_serial_;
  }
  const std::uint32_t occurrence = lane.occurrences[pc]++;
  const auto [at, created] = by_key_.try_emplace({pc, occurrence}, static_cast<std::uint32_t>(requests_.size()));
  if (created) {
    Request& request = requests_.emplace_back();
    request.pc = pc;
    request.occurrence = occurrence;
    request.space = space;
    request.operation = operation;
  }
  return requests_[at->second];
}

void WarpRequests::key_every_request() {
  keyed_ = true;
  keyed_serial_ = next_keyed_serial++;
  by_key_.clear();
  std::unordered_map<const void*, std::uint32_t> seen;
  for (std::uint32_t i = 0; i < requests_.size(); ++i) {
    requests_[i].occurrence = seen[requests_[i].pc]++;
    by_key_[{requests_[i].pc, requests_[i].occurrence}] = i;
  }
}

void WarpRequests::add(ThreadContext& lane, const void* pc, Space space, Operation operation, std::uintptr_t address,
                       unsigned size) {
  Request& request = find(lane, pc, space, operation);
  if (request.lanes < 32) {
    request.addresses[request.lanes] = address;
    request.sizes[request.lanes] = static_cast<std::uint8_t>(std::min(size, 255u));
    ++request.lanes;
  }
}

namespace {

// Distinct values, kept in 32 buckets by value mod 32: for shared-memory
// words the buckets are the banks, and a bucket's size is the wavefronts its
// bank needs. A request's lanes rarely put more than a few values in a bucket.
class Buckets {
 public:
  // Adds `value` unless present; returns whether it was new.
  bool add(std::uintptr_t value) {
    auto& bucket = buckets_[value % 32];
    for (const std::uintptr_t held : bucket)
      if (held == value) return false;
    bucket.push_back(value);
    ++distinct_;
    deepest_ = std::max(deepest_, static_cast<unsigned>(bucket.size()));
    return true;
  }
  unsigned distinct() const { return distinct_; }
  unsigned deepest() const { return deepest_; }
  void clear() {
    for (auto& bucket : buckets_) bucket.clear();
    distinct_ = deepest_ = 0;
  }

 private:
  std::array<std::vector<std::uintptr_t>, 32> buckets_;
  unsigned distinct_ = 0, deepest_ = 0;
};

}  // namespace

void WarpRequests::count_into(MemoryCounters& counters) {
  thread_local Buckets buckets;  // their vectors keep their capacity from request to request
  for (const Request& request : requests_) {
    buckets.clear();
    const unsigned shift = request.space == Space::global ? 5 : 2;  // 32-byte sectors, or 4-byte words
    for (unsigned l = 0; l < request.lanes; ++l) {
      const std::uintptr_t first = request.addresses[l] >> shift;
      const std::uintptr_t last = (request.addresses[l] + request.sizes[l] - 1) >> shift;
      for (std::uintptr_t unit = first; unit <= last; ++unit) buckets.add(unit);
    }
    if (request.space == Space::global) {
      // Every sector a lane's bytes touch, each counted once.
      if (request.operation == Operation::load) {
        ++counters.global_load_requests;
        counters.global_load_sectors += buckets.distinct();
      } else if (request.operation == Operation::store) {
        ++counters.global_store_requests;
        counters.global_store_sectors += buckets.distinct();
      } else {
        ++counters.global_atomic_requests;
      }
      continue;
    }
    // Shared memory: 32 banks of 4-byte words. A wavefront serves at most one
    // word per bank; lanes asking for the same word share it.
    const unsigned wavefronts = std::max(buckets.deepest(), 1u);
    const unsigned fewest = std::max(1u, (buckets.distinct() * 4 + 127) / 128);  // 128 bytes a wavefront at best
    if (request.operation == Operation::store) {
      ++counters.shared_store_requests;
    } else {
      ++counters.shared_load_requests;  // shared atomics count as loads here
    }
    counters.shared_wavefronts += wavefronts;
    counters.shared_bank_conflicts += wavefronts > fewest ? wavefronts - fewest : 0;
  }
  requests_.clear();
  keyed_ = false;
  by_key_.clear();
  keyed_serial_ = next_keyed_serial++;
  serial_ = next_keyed_serial++;
}

}  // namespace rooflab::cuda_cpu::detail
