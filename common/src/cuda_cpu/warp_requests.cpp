#include "warp_requests.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

namespace rooflab::cuda_cpu::detail {
namespace {
std::uint64_t next_keyed_serial = 1;  // only the launching thread runs kernels
}

std::uint32_t WarpRequests::find(ThreadContext& lane, const void* pc, Space space, Operation operation,
                                 std::uintptr_t address) {
  if (lane.requests_serial != serial_) {  // the requests were counted since this lane's last access
    lane.requests_serial = serial_;
    lane.position = 0;
  }
  if (!keyed_) {
    const std::uint32_t position = lane.position++;
    if (position < requests_.size() && requests_[position].pc == pc) return position;
    if (position == requests_.size()) {
      requests_.emplace_back(pc, space, operation, address);  // its occurrence is counted when the requests are keyed
      return position;
    }
    --lane.position;
    key_every_request();
  }
  return find_keyed(lane, pc, space, operation, address);
}

std::uint32_t WarpRequests::find_keyed(ThreadContext& lane, const void* pc, Space space, Operation operation,
                                       std::uintptr_t address) {
  if (lane.keyed_serial != keyed_serial_) {
    // The lane followed requests_[0, position) until now: that is its history.
    lane.occurrences.assign(slot_count_, 0);
    for (std::uint32_t i = 0; i < lane.position && i < requests_.size(); ++i) ++lane.occurrences[requests_[i].slot];
    lane.keyed_serial = keyed_serial_;
    lane.next_request = lane.position;
  }
  if (joins_next(lane, pc)) return take_next(lane);
  const std::uint32_t slot = slot_of(pc);
  if (slot >= lane.occurrences.size()) lane.occurrences.resize(slot + 1, 0);
  const std::uint32_t occurrence = lane.occurrences[slot]++;
  std::vector<std::uint32_t>& by_occurrence = by_occurrence_[slot];
  if (occurrence < by_occurrence.size()) {
    lane.next_request = by_occurrence[occurrence] + 1;
    return by_occurrence[occurrence];
  }
  // A lane's occurrences of an instruction come in order, each one's request
  // made by the first lane to get there: this is the next one.
  const auto index = static_cast<std::uint32_t>(requests_.size());
  by_occurrence.push_back(index);
  Request& request = requests_.emplace_back(pc, space, operation, address);
  request.slot = slot;
  request.occurrence = occurrence;
  lane.next_request = index + 1;
  return index;
}

void WarpRequests::key_every_request() {
  keyed_ = true;
  keyed_serial_ = next_keyed_serial++;
  for (std::uint32_t i = 0; i < requests_.size(); ++i) {
    requests_[i].slot = slot_of(requests_[i].pc);
    requests_[i].occurrence = static_cast<std::uint32_t>(by_occurrence_[requests_[i].slot].size());
    by_occurrence_[requests_[i].slot].push_back(i);
  }
}

namespace {
// Where the open-addressing table of `mask` + 1 entries starts looking for
// `pc` (Fibonacci hashing: instruction addresses differ in their low bits).
std::size_t home_slot(const void* pc, std::size_t mask) {
  return (reinterpret_cast<std::uintptr_t>(pc) * 0x9e3779b97f4a7c15ull >> 32) & mask;
}
}  // namespace

std::uint32_t WarpRequests::slot_of(const void* pc) {
  if (2 * (slot_count_ + 1) > slots_.size()) {  // at most half full: probes stay short
    std::vector<std::pair<const void*, std::uint32_t>> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    for (const auto& [key, slot] : old) {
      if (!slot) continue;
      std::size_t at = home_slot(key, slots_.size() - 1);
      while (slots_[at].second) at = (at + 1) & (slots_.size() - 1);
      slots_[at] = {key, slot};
    }
  }
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = home_slot(pc, mask);; at = (at + 1) & mask) {
    auto& [key, slot] = slots_[at];
    if (slot && key == pc) return slot - 1;
    if (!slot) {
      key = pc;
      slot = ++slot_count_;
      by_occurrence_.emplace_back();
      return slot - 1;
    }
  }
}

void WarpRequests::add_otherwise(ThreadContext& lane, const void* pc, Space space, Operation operation,
                                 std::uintptr_t address, unsigned size) {
  note(requests_[find(lane, pc, space, operation, address)], address, size);
}

void WarpRequests::spill(Request& request, std::uintptr_t first, std::uintptr_t last) {
  if (!request.spill) {
    if (spill_count_ == spills_.size()) spills_.emplace_back();
    spills_[spill_count_].clear();
    request.spill = ++spill_count_;
  }
  std::vector<std::uintptr_t>& units = spills_[request.spill - 1];
  for (std::uintptr_t unit = first; unit != last + 1; ++unit) units.push_back(request.base + unit);
}

namespace {

// The distinct units a request's lanes touch, and the most of them in one
// bank (unit mod 32; for shared-memory words, the wavefronts that bank needs).
struct Units {
  unsigned distinct = 0, deepest = 0;
};

Units units_of(const std::uint64_t* bits, unsigned words, bool banks) {
  Units units;
  // Bit i is in bank i mod 32: the words' 32-bit halves, one on another.
  std::uint32_t once = 0, twice = 0;
  for (unsigned word = 0; word < words; ++word) {
    units.distinct += static_cast<unsigned>(std::popcount(bits[word]));
    for (const auto half : {static_cast<std::uint32_t>(bits[word]), static_cast<std::uint32_t>(bits[word] >> 32)}) {
      twice |= once & half;
      once |= half;
    }
  }
  units.deepest = twice ? 2 : once ? 1 : 0;
  if (!banks || !twice) return units;
  std::uint8_t in_bank[32] = {};  // a bank with two or more: count them all
  for (unsigned word = 0; word < words; ++word)
    for (std::uint64_t left = bits[word]; left; left &= left - 1)
      units.deepest = std::max<unsigned>(units.deepest, ++in_bank[std::countr_zero(left) % 32]);
  return units;
}

// Units in a list, some more than once: chained in 32 buckets by bank, a
// bucket's length is the wavefronts its bank needs. A request's lanes rarely
// put more than a few units in a bank.
class Buckets {
 public:
  Units count(const std::vector<std::uintptr_t>& units) {
    head_.fill(-1);
    length_.fill(0);
    if (values_.size() < units.size()) {
      values_.resize(units.size());
      next_.resize(units.size());
    }
    Units counted;
    for (const std::uintptr_t unit : units) {
      const unsigned bucket = unit % 32;
      bool seen = false;
      for (std::int32_t at = head_[bucket]; at >= 0 && !seen; at = next_[at]) seen = values_[at] == unit;
      if (seen) continue;
      values_[counted.distinct] = unit;
      next_[counted.distinct] = head_[bucket];
      head_[bucket] = static_cast<std::int32_t>(counted.distinct++);
      counted.deepest = std::max(counted.deepest, ++length_[bucket]);
    }
    return counted;
  }

 private:
  std::array<std::int32_t, 32> head_{};
  std::array<unsigned, 32> length_{};
  std::vector<std::uintptr_t> values_;  // keep their capacity from request to request
  std::vector<std::int32_t> next_;
};

}  // namespace

void WarpRequests::count_into(MemoryCounters& counters, InstructionTally& instructions) {
  thread_local Buckets buckets;
  counted_ += requests_.size();
  for (const Request& request : requests_) {
    const bool global = request.space == Space::global;
    Units units;
    if (!request.spill) {
      units = units_of(request.bits, kWindow / 64, /*banks=*/!global);
    } else {  // the bitmap's units join the list's, some of them maybe twice
      std::vector<std::uintptr_t>& spilled = spills_[request.spill - 1];
      for (unsigned word = 0; word < kWindow / 64; ++word)
        for (std::uint64_t left = request.bits[word]; left; left &= left - 1)
          spilled.push_back(request.base + word * 64 + static_cast<unsigned>(std::countr_zero(left)));
      units = buckets.count(spilled);
    }
    InstructionCounters& instruction = instructions[request.pc];
    instruction.pc = request.pc;
    instruction.shared = !global;
    instruction.store = request.operation == Operation::store;
    ++instruction.requests;
    if (global) {
      instruction.sectors += units.distinct;
      // Every sector a lane's bytes touch, each counted once.
      if (request.operation == Operation::load || request.operation == Operation::async_load) {
        ++counters.global_load_requests;
        counters.global_load_sectors += units.distinct;
        if (request.operation == Operation::async_load) ++counters.async_copy_requests;
      } else if (request.operation == Operation::store) {
        ++counters.global_store_requests;
        counters.global_store_sectors += units.distinct;
      } else {
        ++counters.global_atomic_requests;
      }
      continue;
    }
    // Shared memory: 32 banks of 4-byte words. A wavefront serves at most one
    // word per bank; lanes asking for the same word share it.
    const unsigned wavefronts = std::max(units.deepest, 1u);
    const unsigned fewest = std::max(1u, (units.distinct * 4 + 127) / 128);  // 128 bytes a wavefront at best
    instruction.wavefronts += wavefronts;
    instruction.bank_conflicts += count_shared_request(counters, request.operation, wavefronts, fewest);
  }
  requests_.clear();
  spill_count_ = 0;
  if (keyed_)
    for (std::vector<std::uint32_t>& by_occurrence : by_occurrence_) by_occurrence.clear();
  keyed_ = false;
  keyed_serial_ = next_keyed_serial++;
  serial_ = next_keyed_serial++;
}

}  // namespace rooflab::cuda_cpu::detail
