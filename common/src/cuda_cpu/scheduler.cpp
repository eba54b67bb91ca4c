// Runs CUDA kernels on the CPU: a block's threads are fibers (Boost.Context)
// on one OS thread, switched only where CUDA threads synchronise; blocks are
// spread over OS threads. See rooflab/cuda_cpu.hpp for what is and is not
// modelled.
#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rooflab/cuda_cpu.hpp"
#include "runtime_state.hpp"

namespace rooflab::cuda_cpu {
namespace {

// Each CUDA thread's stack: kernels keep a few small arrays there. Kept in a
// pool and reused by every block.
constexpr std::size_t kStackBytes = 64 * 1024;

enum class State { runnable, at_barrier, at_warp_call, done };
enum class WarpCall { sync, shuffle, ballot };

namespace context = boost::context;

struct Fiber {
  context::fiber resume_point;  // where this thread goes on when the scheduler resumes it
  context::fiber scheduler;     // where the scheduler goes on when this thread yields
  State state = State::runnable;
  ThreadState ids;
  unsigned linear = 0;  // x + y·X + z·X·Y, which decides the warp and lane
  // The warp-level call it waits in, and what it gets back.
  WarpCall call = WarpCall::sync;
  const char* call_name = "";
  unsigned mask = 0;
  std::uint64_t posted = 0;
  int source = 0;
  std::uint64_t received = 0;
};

struct Block {
  const char* kernel = "";
  const std::function<void()>* body = nullptr;
  std::vector<Fiber> fibers;
  std::vector<unsigned char> dynamic_shared;
  Fiber* running = nullptr;
  std::exception_ptr thrown;  // what the kernel's code threw
};

thread_local Block* this_block = nullptr;
// Stacks for one block's fibers, taken from the pool and given back after it.
class Stacks {
 public:
  explicit Stacks(unsigned count) {
    const std::lock_guard lock(pool_lock);
    while (stacks_.size() < count) {
      if (pool.empty()) {
        stacks_.emplace_back(new char[kStackBytes]);  // not zeroed: fibers write before they read
      } else {
        stacks_.push_back(std::move(pool.back()));
        pool.pop_back();
      }
    }
  }
  ~Stacks() {
    const std::lock_guard lock(pool_lock);
    for (auto& stack : stacks_) pool.push_back(std::move(stack));
  }
  Stacks(const Stacks&) = delete;
  Stacks& operator=(const Stacks&) = delete;
  char* operator[](std::size_t i) const { return stacks_[i].get(); }

 private:
  std::vector<std::unique_ptr<char[]>> stacks_;
  static inline std::mutex pool_lock;
  static inline std::vector<std::unique_ptr<char[]>> pool;
};

std::atomic<Order> launch_order{Order::forward};
std::atomic<std::uint64_t> order_seed{1};

[[noreturn]] void fail(const Block& block, const std::string& why) {
  throw KernelError(std::string("kernel ") + block.kernel + ": " + why);
}

std::string hex(unsigned mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

std::string describe(const dim3& index) {
  char text[48];  // snprintf: GCC 12 warns, wrongly, on chains of string + (-Wrestrict)
  std::snprintf(text, sizeof text, "(%u, %u, %u)", index.x, index.y, index.z);
  return text;
}

// One pooled stack handed to Boost.Context, which keeps its own record at the
// top; the pool owns the memory.
struct PooledStack {
  char* memory;
  context::stack_context allocate() {
    context::stack_context stack;
    stack.size = kStackBytes;
    stack.sp = memory + kStackBytes;  // stacks grow down
    return stack;
  }
  void deallocate(context::stack_context&) noexcept {}
};

// The body of the fiber that is thread `self` of `block`.
context::fiber thread_main(Block& block, Fiber& self, context::fiber&& scheduler) {
  self.scheduler = std::move(scheduler);
  try {
    (*block.body)();
  } catch (const context::detail::forced_unwind&) {
    throw;  // the block was abandoned while this thread waited: Boost.Context unwinds its stack
  } catch (...) {
    if (!block.thrown) block.thrown = std::current_exception();
  }
  self.state = State::done;
  return std::move(self.scheduler);
}

// Back to the scheduler until it makes this thread runnable again.
void yield(State waiting) {
  Fiber& self = *this_block->running;
  self.state = waiting;
  self.scheduler = std::move(self.scheduler).resume();
}

Fiber& current_fiber() {
  if (!this_block || !this_block->running)
    throw std::logic_error("a CUDA device function was called outside a kernel launch");
  return *this_block->running;
}

// Lanes of warp `warp` that exist in this block, as a mask.
unsigned existing_lanes(const Block& block, unsigned warp) {
  const unsigned first = warp * kWarpSize;
  const unsigned count = std::min<unsigned>(kWarpSize, static_cast<unsigned>(block.fibers.size()) - first);
  return count == kWarpSize ? 0xffffffffu : (1u << count) - 1;
}

const char* where_it_waits(State state) {
  switch (state) {
    case State::done:
      return "has exited";
    case State::at_barrier:
      return "waits at __syncthreads";
    default:
      return "is elsewhere";
  }
}

// Releases every warp-level call whose lanes have all arrived; fails, naming
// the call and the lane, when one can never complete. Returns whether any was
// released.
bool release_warp_calls(Block& block, bool nothing_else_can_run) {
  bool released = false;
  const unsigned warps = (static_cast<unsigned>(block.fibers.size()) + kWarpSize - 1) / kWarpSize;
  for (unsigned warp = 0; warp < warps; ++warp) {
    Fiber* lanes = &block.fibers[warp * kWarpSize];
    const unsigned present = existing_lanes(block, warp);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!(present >> lane & 1u) || lanes[lane].state != State::at_warp_call) continue;
      const Fiber& caller = lanes[lane];
      std::string problem;
      for (unsigned other = 0; other < kWarpSize && problem.empty(); ++other) {
        if (!(caller.mask >> other & 1u)) continue;
        if (!(present >> other & 1u)) {
          problem = "names lane " + std::to_string(other) + ", which this block of " +
                    std::to_string(block.fibers.size()) + " threads does not have";
        } else if (lanes[other].state != State::at_warp_call) {
          if (nothing_else_can_run || lanes[other].state == State::done)
            problem = "names lane " + std::to_string(other) + ", which " + where_it_waits(lanes[other].state);
          else
            problem = "wait";
        } else if (lanes[other].mask != caller.mask) {
          problem = "and lane " + std::to_string(other) + "'s call disagree on the mask";
        }
      }
      if (problem == "wait") continue;
      if (!problem.empty())
        fail(block, std::string(caller.call_name) + " with mask " + hex(caller.mask) + " in thread " +
                        describe(caller.ids.thread_idx) + " of block " + describe(caller.ids.block_idx) + " " +
                        problem);
      // Every lane of the mask is here: answer them all at once.
      unsigned votes = 0;
      for (unsigned other = 0; other < kWarpSize; ++other)
        if (caller.mask >> other & 1u && lanes[other].call == WarpCall::ballot && lanes[other].posted)
          votes |= 1u << other;
      for (unsigned other = 0; other < kWarpSize; ++other) {
        if (!(caller.mask >> other & 1u)) continue;
        Fiber& member = lanes[other];
        if (member.call == WarpCall::shuffle) {
          const auto from = static_cast<unsigned>(member.source);
          if (from >= kWarpSize || !(caller.mask >> from & 1u))
            fail(block, std::string(member.call_name) + " in thread " + describe(member.ids.thread_idx) +
                            " reads lane " + std::to_string(member.source) + ", which is not in its mask");
          member.received = lanes[from].posted;
        } else if (member.call == WarpCall::ballot) {
          member.received = votes;
        }
        member.state = State::runnable;
      }
      released = true;
    }
  }
  return released;
}

std::vector<std::size_t> run_order(std::size_t count, Order order, std::mt19937_64& engine) {
  std::vector<std::size_t> indices(count);
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  if (order == Order::reverse) std::reverse(indices.begin(), indices.end());
  if (order == Order::shuffled) std::shuffle(indices.begin(), indices.end(), engine);
  return indices;
}

void run_block(Block& block, dim3 grid, dim3 block_dim, dim3 block_idx, Order order, std::uint64_t seed) {
  const unsigned threads = block_dim.count();
  const Stacks stacks(threads);
  // Threads still waiting when the block fails are unwound here, while their
  // stacks are still this block's.
  struct Unwind {
    Block& block;
    ~Unwind() { block.fibers.clear(); }
  } unwind{block};
  block.fibers = std::vector<Fiber>(threads);
  for (unsigned t = 0; t < threads; ++t) {
    Fiber& fiber = block.fibers[t];
    fiber.linear = t;
    fiber.ids = {dim3(t % block_dim.x, t / block_dim.x % block_dim.y, t / (block_dim.x * block_dim.y)), block_idx,
                 block_dim, grid};
    fiber.resume_point = context::fiber(
        std::allocator_arg, PooledStack{stacks[t]},
        [&block, &fiber](context::fiber&& scheduler) { return thread_main(block, fiber, std::move(scheduler)); });
  }
  std::mt19937_64 engine(seed ^ (std::uint64_t{block_idx.x} << 40) ^ (std::uint64_t{block_idx.y} << 20) ^ block_idx.z);
  this_block = &block;
  while (true) {
    for (const std::size_t t : run_order(threads, order, engine)) {
      Fiber& fiber = block.fibers[t];
      if (fiber.state != State::runnable) continue;
      block.running = &fiber;
      fiber.resume_point = std::move(fiber.resume_point).resume();
      block.running = nullptr;
      if (block.thrown) std::rethrow_exception(block.thrown);
    }
    std::size_t done = 0, at_barrier = 0, at_warp_call = 0;
    for (const Fiber& fiber : block.fibers) {
      done += fiber.state == State::done;
      at_barrier += fiber.state == State::at_barrier;
      at_warp_call += fiber.state == State::at_warp_call;
    }
    if (done == threads) return;
    if (at_warp_call > 0 && release_warp_calls(block, /*nothing_else_can_run=*/false)) continue;
    if (at_warp_call == 0 && done == 0) {
      for (Fiber& fiber : block.fibers) fiber.state = State::runnable;  // every thread reached the barrier
      continue;
    }
    if (at_warp_call > 0) release_warp_calls(block, /*nothing_else_can_run=*/true);  // fails, naming the call
    const auto waiting = std::find_if(block.fibers.begin(), block.fibers.end(),
                                      [](const Fiber& fiber) { return fiber.state == State::at_barrier; });
    const auto exited = std::find_if(block.fibers.begin(), block.fibers.end(),
                                     [](const Fiber& fiber) { return fiber.state == State::done; });
    fail(block, "__syncthreads in block " + describe(block_idx) + " is not reached by every thread: thread " +
                    describe(waiting->ids.thread_idx) + " waits there, thread " + describe(exited->ids.thread_idx) +
                    " has exited (" + std::to_string(done) + " of " + std::to_string(threads) +
                    " have); on a GPU this hangs or is undefined");
  }
}

}  // namespace

const ThreadState& this_thread() { return current_fiber().ids; }

unsigned this_lane() { return current_fiber().linear % kWarpSize; }

void syncthreads() {
  current_fiber();
  yield(State::at_barrier);
}

namespace {
std::uint64_t warp_call(WarpCall call, const char* name, unsigned mask, std::uint64_t value, int source) {
  Fiber& self = current_fiber();
  self.call = call;
  self.call_name = name;
  self.mask = mask;
  self.posted = value;
  self.source = source;
  if (!(mask >> (self.linear % kWarpSize) & 1u))
    fail(*this_block, std::string(name) + " in thread " + describe(self.ids.thread_idx) + " of block " +
                          describe(self.ids.block_idx) + " has a mask (" + hex(mask) + ") without its own lane " +
                          std::to_string(self.linear % kWarpSize));
  yield(State::at_warp_call);
  return self.received;
}
}  // namespace

void syncwarp(unsigned mask) { warp_call(WarpCall::sync, "__syncwarp", mask, 0, 0); }

std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source_lane, const char* what) {
  return warp_call(WarpCall::shuffle, what, mask, value, source_lane);
}

unsigned ballot(unsigned mask, bool predicate) {
  return static_cast<unsigned>(warp_call(WarpCall::ballot, "__ballot_sync", mask, predicate ? 1 : 0, 0));
}

void* dynamic_shared_memory() {
  current_fiber();
  return this_block->dynamic_shared.data();
}

void set_order(Order order, std::uint64_t seed) {
  launch_order = order;
  order_seed = seed;
}

Order current_order() { return launch_order; }

void run_kernel(const char* kernel_name, dim3 grid, dim3 block_dim, std::size_t shared_bytes,
                const std::function<void()>& body) {
  const auto refuse = [&](const std::string& why) {
    detail::record_error(cudaErrorInvalidValue, std::string("kernel ") + kernel_name + ": " + why);
    throw KernelError(std::string("kernel ") + kernel_name + ": " + why);
  };
  if (block_dim.count() == 0 || grid.count() == 0)
    refuse("launched with an empty grid " + describe(grid) + " or block " + describe(block_dim));
  if (block_dim.count() > kMaxThreadsPerBlock)
    refuse(std::to_string(block_dim.count()) + " threads per block " + describe(block_dim) + " (at most " +
           std::to_string(kMaxThreadsPerBlock) + ")");
  if (block_dim.z > 64) refuse("blockDim.z = " + std::to_string(block_dim.z) + " (at most 64)");
  if (shared_bytes > kSharedMemoryPerBlock)
    refuse(std::to_string(shared_bytes) + " bytes of dynamic shared memory per block (at most " +
           std::to_string(kSharedMemoryPerBlock) + " without cudaFuncSetAttribute)");

  if (race_check()) {
    // Once per order, from the same device memory; a difference is a race.
    const std::string difference =
        compare_orders([&] { run_kernel(kernel_name, grid, block_dim, shared_bytes, body); }, order_seed);
    if (difference.empty()) return;
    detail::record_error(cudaErrorLaunchFailure, std::string("kernel ") + kernel_name + ": " + difference);
    throw KernelError(std::string("kernel ") + kernel_name + ": " + difference);
  }

  const Order order = launch_order;
  const std::uint64_t seed = order_seed;
  const unsigned blocks = grid.count();
  const unsigned workers = std::max(1u, std::min(blocks, std::max(1u, std::thread::hardware_concurrency())));
  std::atomic<unsigned> next{0};
  std::mutex failed;
  std::exception_ptr first_failure;
  const auto worker = [&] {
    try {
      for (unsigned b = next++; b < blocks; b = next++) {
        {
          const std::lock_guard lock(failed);
          if (first_failure) return;
        }
        // Each block on an OS thread of its own: a kernel's static __shared__
        // arrays (thread_local) then start zeroed in every block, as its
        // dynamic shared memory does, and never hold what an earlier block or
        // launch left there, which could hide a race from compare_orders.
        std::exception_ptr thrown;
        std::thread([&] {
          try {
            Block block;
            block.kernel = kernel_name;
            block.body = &body;
            block.dynamic_shared.assign(shared_bytes, 0);
            run_block(block, grid, block_dim, dim3(b % grid.x, b / grid.x % grid.y, b / (grid.x * grid.y)), order,
                      seed);
          } catch (...) {
            thrown = std::current_exception();
          }
          this_block = nullptr;
        }).join();
        if (thrown) std::rethrow_exception(thrown);
      }
    } catch (...) {
      const std::lock_guard lock(failed);
      if (!first_failure) first_failure = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(worker);
  worker();
  for (std::thread& thread : threads) thread.join();
  if (first_failure) {
    try {
      std::rethrow_exception(first_failure);
    } catch (const std::exception& error) {
      detail::record_error(cudaErrorLaunchFailure, error.what());
    } catch (...) {
      detail::record_error(cudaErrorLaunchFailure, std::string("kernel ") + kernel_name + " threw");
    }
    std::rethrow_exception(first_failure);
  }
}

}  // namespace rooflab::cuda_cpu
