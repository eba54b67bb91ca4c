#include "shadow_pool.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

namespace rooflab::cuda_cpu::detail {
namespace {

// Launches run one at a time, but a program may launch from several host
// threads: the pool and the owners are the process's, behind one lock.
struct Pool {
  std::mutex lock;
  std::vector<ShadowMapping> kept;
  std::size_t kept_bytes = 0;
  std::uint32_t next_owner = 1;
};

Pool& pool() {
  static Pool* const instance = new Pool;  // never destroyed: a launch may end during exit
  return *instance;
}

void unmap(const ShadowMapping& mapping) { munmap(mapping.address, mapping.bytes); }

// Every kept mapping unmapped (the pool's lock held).
void drop_kept(Pool& p) {
  for (const ShadowMapping& mapping : p.kept) unmap(mapping);
  p.kept.clear();
  p.kept_bytes = 0;
}

}  // namespace

ShadowMapping take_shadow(std::size_t bytes) {
  Pool& p = pool();
  {
    const std::lock_guard<std::mutex> guard(p.lock);
    // The smallest kept mapping that holds it; the others are unmapped
    // before a new one is mapped, so that a launch never holds more than it
    // would without the pool.
    const auto fits = [bytes](const ShadowMapping& m) { return m.bytes >= bytes; };
    auto best = p.kept.end();
    for (auto it = p.kept.begin(); it != p.kept.end(); ++it)
      if (fits(*it) && (best == p.kept.end() || it->bytes < best->bytes)) best = it;
    if (best != p.kept.end()) {
      const ShadowMapping found = *best;
      p.kept.erase(best);
      p.kept_bytes -= found.bytes;
      return found;
    }
    drop_kept(p);
  }
  void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  return {mapped, bytes};
}

void give_back_shadow(ShadowMapping mapping) {
  if (!mapping.address) return;
  Pool& p = pool();
  const std::lock_guard<std::mutex> guard(p.lock);
  if (p.kept_bytes + mapping.bytes > kKeptShadowBytes) return unmap(mapping);
  p.kept.push_back(mapping);
  p.kept_bytes += mapping.bytes;
}

std::uint32_t take_owners(std::uint32_t count) {
  Pool& p = pool();
  const std::lock_guard<std::mutex> guard(p.lock);
  count = std::min(count, kLastOwner - 1);
  if (p.next_owner > kLastOwner - count) {
    // Every word of a kept mapping may hold any owner up to here: start afresh.
    drop_kept(p);
    p.next_owner = 1;
  }
  const std::uint32_t first = p.next_owner;
  p.next_owner += count;
  return first;
}

}  // namespace rooflab::cuda_cpu::detail
