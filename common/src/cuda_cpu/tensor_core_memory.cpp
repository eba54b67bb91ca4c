// The memory traffic of the tensor-core atoms (rooflab/tensor_core.hpp) on
// the CPU runtime: ldmatrix's rows and their bank-conflict count, and
// cp.async's copies in flight (async_copies.hpp).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "memory_checker.hpp"
#include "rooflab/ldmatrix_banks.hpp"
#include "scheduler_internal.hpp"

namespace rooflab::cuda_cpu {

namespace {

std::string hex_address(const void* address) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", address);
  return text;
}

// The running thread and its launch's checker; none outside kernel code.
std::pair<detail::ThreadContext*, detail::LaunchChecker*> running(const void* pc, const char* what) {
  detail::ThreadContext* thread = detail::current_thread();
  detail::LaunchChecker* checker = detail::current_checker();
  if (!thread || !checker) fail_at(pc, std::string(what) + " outside a kernel");
  return {thread, checker};
}

}  // namespace

void read_matrix_row(const void* pc, void* to, const void* row, const char* what) {
  auto [thread, checker] = running(pc, what);
  const auto address = reinterpret_cast<std::uintptr_t>(row);
  if (address % 16 != 0)
    fail_at(pc, std::string(what) + ": the row address " + hex_address(row) +
                    " is not 16-byte aligned, as ldmatrix requires of every row");
  if (!checker->in_shared_memory(address, 16))
    fail_at(pc, std::string(what) + ": the row address " + hex_address(row) +
                    " is not in the block's shared memory: ldmatrix reads rows of shared memory only");
  checker->check(*thread, address, 16, detail::kUncounted, pc);
  std::memcpy(to, row, 16);
}

void count_ldmatrix(const std::uintptr_t* rows, int matrices) {
  if (detail::LaunchChecker* checker = detail::current_checker())
    checker->count_shared_load(cuda::ldmatrix_wavefronts(rows, matrices), static_cast<unsigned>(matrices));
}

void async_copy_issue(const void* pc, void* to, const void* from, unsigned bytes, unsigned source_bytes,
                      const char* what) {
  auto [thread, checker] = running(pc, what);
  const auto destination = reinterpret_cast<std::uintptr_t>(to), source = reinterpret_cast<std::uintptr_t>(from);
  if (destination % bytes != 0 || source % bytes != 0)
    fail_at(pc, std::string(what) + ": the " +
                    (destination % bytes ? "destination " + hex_address(to) : "source " + hex_address(from)) +
                    " is not " + std::to_string(bytes) + "-byte aligned, as cp.async requires of both");
  if (!checker->in_shared_memory(destination, bytes))
    fail_at(pc, std::string(what) + ": the destination " + hex_address(to) +
                    " is not in the block's shared memory (cp.async copies global to shared memory)");
  if (checker->in_shared_memory(source, bytes))
    fail_at(pc, std::string(what) + ": the source " + hex_address(from) +
                    " is in shared memory: cp.async reads global memory");
  if (source_bytes > bytes)
    fail_at(pc, std::string(what) + ": src_size " + std::to_string(source_bytes) + " is more than the " +
                    std::to_string(bytes) + " bytes it copies");
  detail::AsyncCopies::Copy copy;
  copy.to = destination;
  copy.from = source;
  copy.bytes = bytes;
  copy.pc = pc;
  copy.thread = thread->linear;
  // The source's bytes now, each piece checked and counted as this line's
  // global load (a partial source in aligned pieces; the rest stays zero).
  for (unsigned done = 0; done < source_bytes;) {
    unsigned piece = 16;
    while (piece > source_bytes - done || (source + done) % piece != 0) piece /= 2;
    detail::on_access(reinterpret_cast<const void*>(source + done), piece, detail::kAsyncSource, pc);
    std::memcpy(copy.data + done, reinterpret_cast<const void*>(source + done), piece);
    done += piece;
  }
  if (const detail::AsyncCopies::Copy* other = checker->async_copies().conflicting(destination, bytes, true))
    fail_at(pc, std::string(what) + ": its destination " + hex_address(to) +
                    " is also the destination of a cp.async still in flight, issued at " +
                    detail::source_line(other->pc) + ": which lands last is undefined (wait for the first)");
  // The destination, as the copy may write it from now on: a race with
  // any access of another thread not ordered before this one.
  checker->check(*thread, destination, bytes, detail::kWrite | detail::kAsyncIssue, pc);
  const detail::RuntimeScope inside(thread);
  checker->async_copies().issue(copy);
}

void async_copy_commit() {
  auto [thread, checker] = running(nullptr, "cp.async.commit_group");
  const detail::RuntimeScope inside(thread);
  checker->async_copies().commit(thread->linear);
}

void async_copy_wait() {
  auto [thread, checker] = running(nullptr, "cp.async.wait_group");
  if (thread->linear % 32 == 0) checker->count_async_copy_wait();
}

bool async_copy_next_landing(int allowed_pending, const void*& pc, void*& to, void* data, unsigned& bytes) {
  auto [thread, checker] = running(nullptr, "cp.async.wait_group");
  const detail::RuntimeScope inside(thread);
  detail::AsyncCopies::Copy copy;
  if (!checker->async_copies().next_landing(thread->linear, allowed_pending, copy)) return false;
  pc = copy.pc;
  to = reinterpret_cast<void*>(copy.to);
  std::memcpy(data, copy.data, copy.bytes);
  bytes = copy.bytes;
  return true;
}

}  // namespace rooflab::cuda_cpu
