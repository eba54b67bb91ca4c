#include "async_copies.hpp"

#include <algorithm>

namespace rooflab::cuda_cpu::detail {

void AsyncCopies::begin_block(std::uintptr_t shared_begin, std::size_t shared_bytes, unsigned threads) {
  shared_begin_ = shared_begin;
  shared_bytes_ = shared_bytes;
  if (in_flight_ != 0 || per_thread_.size() != threads) {
    per_thread_.assign(threads, {});
    std::fill(chunk_owner_.begin(), chunk_owner_.end(), 0u);
  }
  groups_committed_.assign(threads, 0);
  in_flight_ = 0;
}

const AsyncCopies::Copy* AsyncCopies::conflicting(std::uintptr_t address, unsigned size, bool write) const {
  const auto meets = [&](std::uintptr_t begin, unsigned bytes) {
    return address < begin + bytes && begin < address + size;
  };
  if (address - shared_begin_ < shared_bytes_) {
    const std::size_t first = (address - shared_begin_) / 16, last = (address + size - 1 - shared_begin_) / 16;
    for (std::size_t chunk = first; chunk <= last && chunk < chunk_owner_.size(); ++chunk) {
      if (!chunk_owner_[chunk]) continue;
      for (const Copy& copy : per_thread_[chunk_owner_[chunk] - 1])
        if (meets(copy.to, copy.bytes)) return &copy;
    }
    return nullptr;
  }
  if (!write) return nullptr;
  for (const std::vector<Copy>& copies : per_thread_)
    for (const Copy& copy : copies)
      if (meets(copy.from, copy.bytes)) return &copy;
  return nullptr;
}

void AsyncCopies::mark(const Copy& copy, std::uint32_t owner) {
  for (std::uintptr_t chunk = (copy.to - shared_begin_) / 16; chunk <= (copy.to + copy.bytes - 1 - shared_begin_) / 16;
       ++chunk)
    chunk_owner_[chunk] = owner;
}

void AsyncCopies::issue(const Copy& copy) {
  if (chunk_owner_.size() < (shared_bytes_ + 15) / 16) chunk_owner_.resize((shared_bytes_ + 15) / 16, 0u);
  per_thread_[copy.thread].push_back(copy);
  mark(copy, copy.thread + 1);
  ++in_flight_;
}

void AsyncCopies::commit(unsigned thread) {
  for (Copy& copy : per_thread_[thread])
    if (copy.group == kUncommitted) copy.group = groups_committed_[thread];
  ++groups_committed_[thread];
}

bool AsyncCopies::next_landing(unsigned thread, int allowed_pending, Copy& copy) {
  std::vector<Copy>& copies = per_thread_[thread];
  const std::uint32_t committed = groups_committed_[thread];
  for (auto it = copies.begin(); it != copies.end(); ++it) {
    // Group g still may be in flight when it is one of the latest `allowed_pending`.
    if (it->group == kUncommitted || it->group + static_cast<std::uint32_t>(allowed_pending) >= committed) continue;
    copy = *it;
    copies.erase(it);
    mark(copy, 0);
    --in_flight_;
    return true;
  }
  return false;
}

}  // namespace rooflab::cuda_cpu::detail
