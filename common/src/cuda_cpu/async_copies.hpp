// cp.async on the CPU runtime: the copies a block's threads have in flight.
// A copy reads its source when it is issued and lands in shared memory when
// its thread's cp.async.wait_group covers its group; on a GPU it may land at
// any moment in between, so every access to its destination, and every
// write to its source, before it landed is an error (the memory checker asks
// conflicting() while any copy is in flight). A thread that exits with copies
// in flight leaves them unlanded: no thread may read them without its wait.
// Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rooflab::cuda_cpu::detail {

class AsyncCopies {
 public:
  static constexpr std::uint32_t kUncommitted = 0xffffffffu;
  struct Copy {
    std::uintptr_t to = 0, from = 0;
    unsigned bytes = 0;
    const void* pc = nullptr;
    unsigned thread = 0;                 // the issuing thread's linear index
    std::uint32_t group = kUncommitted;  // its thread's commit count when it joined a group
    alignas(16) unsigned char data[16] = {};
  };

  // A new block: nothing in flight; its shared memory is [begin, begin + bytes).
  void begin_block(std::uintptr_t shared_begin, std::size_t shared_bytes, unsigned threads);
  bool any_in_flight() const { return in_flight_ != 0; }
  // The copy in flight whose destination [address, address + size) meets,
  // or, for a write, whose source it meets; null when none.
  const Copy* conflicting(std::uintptr_t address, unsigned size, bool write) const;
  void issue(const Copy& copy);
  void commit(unsigned thread);
  // Pops the oldest copy of `thread` that a wait leaving at most
  // `allowed_pending` of its latest groups in flight lands; false when none.
  bool next_landing(unsigned thread, int allowed_pending, Copy& copy);

 private:
  std::uintptr_t shared_begin_ = 0;
  std::size_t shared_bytes_ = 0;
  std::vector<std::vector<Copy>> per_thread_;    // in issue order
  std::vector<std::uint32_t> groups_committed_;  // per thread
  // Per 16 bytes of shared memory: the issuing thread + 1 of the copy in
  // flight there, or 0.
  std::vector<std::uint32_t> chunk_owner_;
  // Sets the owner of the chunks `copy` writes (0: none in flight).
  void mark(const Copy& copy, std::uint32_t owner);
  unsigned in_flight_ = 0;
};

}  // namespace rooflab::cuda_cpu::detail
