// Runs CUDA kernels on the CPU: a block's threads are fibers (Boost.Context)
// switched where CUDA threads synchronise or spin, and at volatile and atomic
// accesses in an order drawn per launch; blocks run one after another on the
// launching thread, in an order shuffled per launch. Every access of kernel
// code goes to the launch's LaunchChecker (memory_checker.hpp). See
// rooflab/cuda_cpu.hpp for what is and is not modelled.
#include <signal.h>

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "fiber_stacks.hpp"
#include "launch_records.hpp"
#include "memory_checker.hpp"
#include "rooflab/cuda_cpu.hpp"
#include "runtime_state.hpp"
#include "scheduler_internal.hpp"

namespace rooflab::cuda_cpu {
namespace {

namespace context = boost::context;
using detail::LaunchChecker;
using detail::ThreadContext;

enum class State { runnable, at_barrier, at_warp_call, done, abandoned };
enum class WarpCall { sync, shuffle, ballot, collective };

struct Fiber {
  context::fiber resume_point;  // where this thread goes on when the scheduler resumes it
  context::fiber scheduler;     // where the scheduler goes on when this thread yields
  State state = State::runnable;
  ThreadContext thread;
  bool spun = false;      // it last yielded in a spin-wait
  bool switched = false;  // it last yielded at a volatile or atomic access (switch_point)
  // The warp-level call (or __syncthreads_count) it waits in, and what it gets back.
  WarpCall call = WarpCall::sync;
  const char* call_name = "";
  unsigned mask = 0;
  std::uint64_t posted = 0;
  int source = 0;
  std::uint64_t received = 0;
  // A warp-collective operation's description and this lane's data.
  const WarpCollective* collective = nullptr;
  void* data = nullptr;
};

struct Block {
  const detail::KernelCall* call = nullptr;
  LaunchChecker* checker = nullptr;
  std::mt19937_64* engine = nullptr;  // the launch's: the order of its blocks, threads and switches
  dim3 grid, dim, index;
  std::vector<Fiber> fibers;
  Fiber* running = nullptr;
  std::exception_ptr thrown;  // what the kernel's code threw
  std::string abandoned;      // why a thread was stopped (abandon_thread)
};

thread_local Block* this_block = nullptr;
// Drawn once per launch: what CUDA leaves unspecified (a WMMA fragment's
// layout) is drawn from it.
thread_local std::uint64_t launch_draw_value = 0;
using detail::running_thread;  // set exactly while this_block->running is

// Launches run one at a time: each sees the device buffers as they are.
std::mutex launch_lock;
// Each kernel's cudaFuncAttributeMaxDynamicSharedMemorySize, by name.
std::mutex attributes_lock;
std::map<std::string, std::size_t> dynamic_shared_limits;  // under attributes_lock
detail::FiberStacks stacks;                                // under launch_lock
std::uint64_t launch_serial = 0;

[[noreturn]] void fail(const Block& block, const std::string& why) {
  throw KernelError(std::string("kernel ") + block.call->name + ": " + why);
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

std::string who(const Block& block, const Fiber& fiber) {
  return "thread " + describe(fiber.thread.thread_idx) + " of block " + describe(block.index);
}

// One stack of the pool handed to Boost.Context, which keeps its own record
// at the top; the pool owns the memory.
struct PooledStack {
  std::uintptr_t low, high;
  context::stack_context allocate() {
    context::stack_context stack;
    stack.size = high - low;
    stack.sp = reinterpret_cast<void*>(high);  // stacks grow down
    return stack;
  }
  void deallocate(context::stack_context&) noexcept {}
};

// The body of the fiber that is thread `self` of `block`.
context::fiber thread_main(Block& block, Fiber& self, context::fiber&& scheduler) {
  self.scheduler = std::move(scheduler);
  try {
    block.call->entry(block.call->call);
  } catch (const context::detail::forced_unwind&) {
    throw;
  } catch (...) {
    if (!block.thrown) block.thrown = std::current_exception();
  }
  self.state = State::done;
  return std::move(self.scheduler);
}

[[noreturn, gnu::cold]] void outside_a_launch() {
  throw std::logic_error("a CUDA device function was called outside a kernel launch");
}

Fiber& current_fiber() {
  if (!this_block || !this_block->running) outside_a_launch();
  return *this_block->running;
}

// The running thread's context, for what kernel code asks most often
// (threadIdx): one thread-local load where current_fiber() takes two.
const ThreadContext& current_context() {
  if (!running_thread) outside_a_launch();
  return *running_thread;
}

// Back to the scheduler until it makes this thread runnable again.
void yield(State waiting) {
  Fiber& self = *this_block->running;
  self.state = waiting;
  self.scheduler = std::move(self.scheduler).resume();
}

// A stack overflow in a kernel: the guard page below the thread's stack.
void on_segmentation_fault(int, siginfo_t* info, void*);
struct sigaction previous_action {};

void install_overflow_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_segmentation_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_action);
  });
  // The handler runs on a stack of its own: the thread's has no room left.
  thread_local std::unique_ptr<char[]> alternate;
  if (!alternate) {
    constexpr std::size_t kBytes = 64 * 1024;
    alternate.reset(new char[kBytes]);
    stack_t stack{};
    stack.ss_sp = alternate.get();
    stack.ss_size = kBytes;
    sigaltstack(&stack, nullptr);
  }
}

void on_segmentation_fault(int signal_number, siginfo_t* info, void*) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (this_block && this_block->running && stacks.in_guard_page(address)) {
    detail::abandon_thread(std::string("kernel ") + this_block->call->name + ": " +
                           who(*this_block, *this_block->running) + " ran past the end of its " +
                           std::to_string(detail::kStackBytes / 1024) +
                           " KiB stack: its local variables (arrays in registers or local memory) need more "
                           "than the " +
                           std::to_string(detail::kLocalMemoryPerThread / 1024) +
                           " KiB of local memory a GPU thread may have, or it recurses without end");
  }
  // Not ours: the previous handler, or the default (a crash), on return.
  sigaction(signal_number, &previous_action, nullptr);
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

// Lanes that took part in one warp-level call are ordered: each ticks its own
// clock, then all take the latest of every lane's, and what any of them
// acquired through atomics (of its block, of other blocks) becomes every
// one's, as a __syncwarp orders memory among the lanes it names.
void join_clocks(Fiber* lanes, unsigned mask) {
  std::uint32_t joined[kWarpSize] = {};
  bool acquired = false;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    ThreadContext& thread = lanes[lane].thread;
    ++thread.clock[lane];
    for (unsigned other = 0; other < kWarpSize; ++other) joined[other] = std::max(joined[other], thread.clock[other]);
    acquired = acquired || !thread.acquired.empty() || !thread.other_blocks.empty();
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if (mask >> lane & 1u) std::copy(joined, joined + kWarpSize, lanes[lane].thread.clock);
  if (!acquired) return;
  std::vector<std::uint32_t> in_block;
  detail::Knowledge other_blocks;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    const ThreadContext& thread = lanes[lane].thread;
    if (in_block.size() < thread.acquired.size()) in_block.resize(thread.acquired.size(), 0);
    for (std::size_t t = 0; t < thread.acquired.size(); ++t) in_block[t] = std::max(in_block[t], thread.acquired[t]);
    other_blocks.learn(thread.other_blocks);
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    ThreadContext& thread = lanes[lane].thread;
    if (!in_block.empty()) thread.acquired = in_block;
    thread.other_blocks.learn(other_blocks);
  }
}

// What lane `lane` waits in, for an error: "__syncwarp" or
// "wmma::mma_sync at src/x.cu:40".
std::string waits_in(const Fiber& lane) {
  if (lane.call != WarpCall::collective) return lane.call_name;
  return std::string(lane.call_name) + " at " + detail::source_line(lane.collective->pc);
}

// Whether two lanes' warp-collective calls are one call of the source: the
// same instruction, or copies of one call the optimizer made (a loop
// unswitched on the lane, say, runs it from two places), which name the same
// operation and source line.
bool same_call(const WarpCollective& one, const WarpCollective& other) {
  if (one.pc == other.pc) return true;
  return std::strcmp(one.what, other.what) == 0 && detail::source_line(one.pc) == detail::source_line(other.pc);
}

// Why lanes `caller` and `other` (both at warp-level calls, with one mask)
// cannot be answered together, or "": a warp-collective operation needs every
// lane at the same instruction with the same arguments, as a converged warp
// runs it on a GPU.
std::string disagreement(const Fiber& caller, const Fiber& other, unsigned other_lane) {
  const bool caller_collective = caller.call == WarpCall::collective;
  if (!caller_collective && other.call != WarpCall::collective) return "";
  const std::string lane = "lane " + std::to_string(other_lane);
  if (!caller_collective || other.call != WarpCall::collective || !same_call(*caller.collective, *other.collective))
    return "while " + lane + " waits in " + waits_in(other) +
           ": a warp-collective operation needs every lane of the warp at the same call, converged";
  if (caller.collective->arguments != other.collective->arguments)
    return "with arguments (" + std::string(caller.collective->argument_names) + ") that " + lane +
           " gives differently: every lane must pass the same";
  return "";
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
        } else {
          problem = disagreement(caller, lanes[other], other);
        }
      }
      if (problem == "wait") continue;
      if (!problem.empty())
        fail(block, waits_in(caller) + " with mask " + hex(caller.mask) + " in " + who(block, caller) + " (lane " +
                        std::to_string(lane) + ") " + problem);
      // Every lane of the mask is here: answer them all at once.
      const unsigned mask = caller.mask;
      unsigned votes = 0;
      for (unsigned other = 0; other < kWarpSize; ++other)
        if (mask >> other & 1u && lanes[other].call == WarpCall::ballot && lanes[other].posted) votes |= 1u << other;
      if (caller.call == WarpCall::collective) {
        // Every lane's data at once, before any lane goes on.
        void* lane_data[kWarpSize] = {};
        for (unsigned other = 0; other < kWarpSize; ++other)
          if (mask >> other & 1u) lane_data[other] = lanes[other].data;
        caller.collective->combine(lane_data, mask);
      }
      for (unsigned other = 0; other < kWarpSize; ++other) {
        if (!(mask >> other & 1u)) continue;
        Fiber& member = lanes[other];
        if (member.call == WarpCall::shuffle) {
          const auto from = static_cast<unsigned>(member.source);
          if (from >= kWarpSize || !(mask >> from & 1u))
            fail(block, std::string(member.call_name) + " in " + who(block, member) + " reads lane " +
                            std::to_string(member.source) + ", which is not in its mask");
          member.received = lanes[from].posted;
        } else if (member.call == WarpCall::ballot) {
          member.received = votes;
        }
        member.state = State::runnable;
      }
      join_clocks(lanes, mask);
      released = true;
    }
  }
  return released;
}

std::vector<std::size_t> shuffled(std::size_t count, std::mt19937_64& engine) {
  std::vector<std::size_t> indices(count);
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  std::shuffle(indices.begin(), indices.end(), engine);
  return indices;
}

// A spin-wait nothing releases: this many passes in which threads spun and
// nothing was written.
constexpr unsigned kStalledPasses = 2000;

void run_block(Block& block) {
  const unsigned threads = block.dim.count();
  block.fibers = std::vector<Fiber>(threads);
  for (unsigned t = 0; t < threads; ++t) {
    Fiber& fiber = block.fibers[t];
    ThreadContext& thread = fiber.thread;
    thread.linear = t;
    thread.thread_idx = dim3(t % block.dim.x, t / block.dim.x % block.dim.y, t / (block.dim.x * block.dim.y));
    thread.stack_low = stacks.low(t);
    thread.stack_high = stacks.high(t);
    thread.clock[t % kWarpSize] = 1;
    fiber.resume_point = context::fiber(
        std::allocator_arg, PooledStack{thread.stack_low, thread.stack_high},
        [&block, &fiber](context::fiber&& scheduler) { return thread_main(block, fiber, std::move(scheduler)); });
  }
  unsigned stalled = 0;
  const std::vector<std::size_t> order = shuffled(threads, *block.engine);
  while (true) {
    const std::uint64_t writes_before = block.checker->writes();
    bool spun = false, switched = false;
    for (const std::size_t t : order) {
      Fiber& fiber = block.fibers[t];
      if (fiber.state != State::runnable) continue;
      block.running = &fiber;
      running_thread = &fiber.thread;
      fiber.spun = fiber.switched = false;
      fiber.resume_point = std::move(fiber.resume_point).resume();
      running_thread = nullptr;
      block.running = nullptr;
      spun = spun || fiber.spun;
      switched = switched || fiber.switched;
      if (!block.abandoned.empty()) throw KernelError(block.abandoned);
      if (block.thrown) std::rethrow_exception(block.thrown);
    }
    std::size_t done = 0, at_barrier = 0, at_warp_call = 0, runnable = 0;
    for (const Fiber& fiber : block.fibers) {
      done += fiber.state == State::done;
      at_barrier += fiber.state == State::at_barrier;
      at_warp_call += fiber.state == State::at_warp_call;
      runnable += fiber.state == State::runnable;
    }
    if (done == threads) break;
    const bool released = at_warp_call > 0 && release_warp_calls(block, /*nothing_else_can_run=*/false);
    if (runnable > 0) {
      // A pass in which threads only switched at volatile or atomic accesses
      // neither makes nor breaks a stall.
      const bool progress = released || block.checker->writes() != writes_before;
      if (progress || (!spun && !switched))
        stalled = 0;
      else if (spun)
        ++stalled;
      if (stalled == kStalledPasses) {
        const auto spinner =
            std::find_if(block.fibers.begin(), block.fibers.end(), [](const Fiber& fiber) { return fiber.spun; });
        fail(block, who(block, *spinner) +
                        " spins on an atomic or volatile flag that no running thread of its block "
                        "will change (the others wait or have exited): on a GPU this hangs. A flag "
                        "set by another block never comes here either: this runtime runs blocks one "
                        "after another, and a GPU does not promise to run them at the same time");
      }
      continue;
    }
    stalled = 0;
    if (released) continue;
    if (at_warp_call == 0 && done == 0) {
      // Every thread reached the barrier: __syncthreads_count's answer, then on.
      std::uint64_t count = 0;
      for (const Fiber& fiber : block.fibers) count += fiber.posted;
      for (Fiber& fiber : block.fibers) {
        fiber.received = count;
        fiber.posted = 0;
        fiber.state = State::runnable;
        if (!fiber.thread.other_blocks.empty()) block.checker->pass_on(fiber.thread);
      }
      block.checker->barrier();
      continue;
    }
    if (at_warp_call > 0) release_warp_calls(block, /*nothing_else_can_run=*/true);  // fails, naming the call
    const auto waiting = std::find_if(block.fibers.begin(), block.fibers.end(),
                                      [](const Fiber& fiber) { return fiber.state == State::at_barrier; });
    const auto exited = std::find_if(block.fibers.begin(), block.fibers.end(),
                                     [](const Fiber& fiber) { return fiber.state == State::done; });
    fail(block, "__syncthreads in block " + describe(block.index) + " is not reached by every thread: thread " +
                    describe(waiting->thread.thread_idx) + " waits there, thread " +
                    describe(exited->thread.thread_idx) + " has exited (" + std::to_string(done) + " of " +
                    std::to_string(threads) + " have); on a GPU this hangs or is undefined");
  }
  block.checker->barrier();  // counts the last interval's requests
}

// A block that failed leaves threads suspended, some inside callbacks that
// must not throw: they are never resumed nor unwound (their handles are
// kept, never destroyed), and the pool reuses their stacks.
void abandon_unfinished(Block& block) {
  for (Fiber& fiber : block.fibers)
    if (fiber.resume_point) new context::fiber(std::move(fiber.resume_point));  // never resumed
  block.fibers.clear();
}

// "flash_forward" for "a05::flash_forward<kBlockRows>": how launches are
// recorded and named, whatever namespaces and template arguments the call
// spelled out.
std::string base_name(std::string name) {
  if (const std::size_t angle = name.find('<'); angle != std::string::npos) name.resize(angle);
  if (const std::size_t colons = name.rfind("::"); colons != std::string::npos) name.erase(0, colons + 2);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name;
}

}  // namespace

namespace detail {

constinit thread_local ThreadContext* running_thread = nullptr;

void abandon_thread(std::string why) {
  if (running_thread) ++running_thread->in_runtime;  // for good: it never runs kernel code again
  Block& block = *this_block;
  Fiber& self = *block.running;
  block.abandoned = std::move(why);
  self.state = State::abandoned;
  self.scheduler = std::move(self.scheduler).resume();
  std::abort();  // never resumed
}

void note_spin_read(ThreadContext& thread, std::uintptr_t address) {
  if (address != thread.spin_address) {
    thread.spin_address = address;
    thread.spin_reads = 0;
  }
  if (++thread.spin_reads >= 16) {
    thread.spin_reads = 0;
    pause_thread();
  }
}

void switch_point(bool always) {
  if (!this_block || !this_block->running || (!always && !((*this_block->engine)() & 1))) return;
  Fiber& self = *this_block->running;
  // Reading the same address again and again is a spin-wait, whichever way
  // it comes to yield.
  if (self.thread.spin_reads > 1)
    self.spun = true;
  else
    self.switched = true;
  yield(State::runnable);
}

void note_unchanging_atomic(std::uintptr_t address) {
  ThreadContext* thread = current_thread();
  if (!thread) return;
  if (LaunchChecker* checker = current_checker()) {
    checker->undo_write();
    checker->acquire(*thread, address);
  }
  note_spin_read(*thread, address);
}

void note_atomic_release(std::uintptr_t address) {
  ThreadContext* thread = current_thread();
  LaunchChecker* checker = current_checker();
  if (thread && checker) checker->release(*thread, address);
}

void note_atomic_read(std::uintptr_t address) {
  ThreadContext* thread = current_thread();
  LaunchChecker* checker = current_checker();
  if (thread && checker) checker->acquire(*thread, address);
}

// set_launch_shapes_only(): launches recorded, not run.
std::atomic<bool> launch_shapes_only{false};

void run_kernel(const KernelCall& spelled, dim3 grid, dim3 block_dim, std::size_t shared_bytes) {
  const std::string name = base_name(spelled.name);
  KernelCall call = spelled;
  call.name = name.c_str();
  const auto refuse = [&](const std::string& why) {
    record_error(cudaErrorInvalidValue, std::string("kernel ") + call.name + ": " + why);
    throw KernelError(std::string("kernel ") + call.name + ": " + why);
  };
  if (block_dim.count() == 0 || grid.count() == 0)
    refuse("launched with an empty grid " + describe(grid) + " or block " + describe(block_dim));
  if (block_dim.count() > kMaxThreadsPerBlock)
    refuse(std::to_string(block_dim.count()) + " threads per block " + describe(block_dim) + " (at most " +
           std::to_string(kMaxThreadsPerBlock) + ")");
  if (block_dim.z > 64) refuse("blockDim.z = " + std::to_string(block_dim.z) + " (at most 64)");
  if (grid.y > 65535 || grid.z > 65535) refuse("gridDim " + describe(grid) + ": y and z may be at most 65535");
  std::size_t shared_limit = kSharedMemoryPerBlock;
  bool opted_in = false;
  {
    const std::lock_guard lock(attributes_lock);
    if (const auto limit = dynamic_shared_limits.find(name); limit != dynamic_shared_limits.end()) {
      shared_limit = limit->second;
      opted_in = true;
    }
  }
  if (shared_bytes > shared_limit && !opted_in)
    refuse(std::to_string(shared_bytes) + " bytes of dynamic shared memory per block: more than the " +
           std::to_string(kSharedMemoryPerBlock) + " a block may use without opting in; call cudaFuncSetAttribute(" +
           name + ", cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before the launch (the modelled " +
           cuda::kModelledGpu + " allows up to " + std::to_string(kSharedMemoryPerBlockOptIn) + ")");
  if (shared_bytes > shared_limit)
    refuse(std::to_string(shared_bytes) + " bytes of dynamic shared memory per block: more than the " +
           std::to_string(shared_limit) + " its cudaFuncAttributeMaxDynamicSharedMemorySize allows");
  if (this_block) refuse("launched from inside a kernel (dynamic parallelism is not modelled)");
  if (launch_shapes_only) {
    record_launch({name, grid, block_dim, shared_bytes, 0, {}, {}, {}, 0, 0, {}});
    return;
  }

  const std::lock_guard lock(launch_lock);
  install_overflow_handler();
  stacks.reserve(block_dim.count());
  std::mt19937_64 engine(0x5eed0000ull + ++launch_serial);
  launch_draw_value = engine();
  // Shared memory holds a byte drawn per launch, never zeros.
  const auto pattern = static_cast<unsigned char>(0x80 | (engine() >> 57));
  // With the attribute set, dynamic and static shared memory together may
  // reach the opt-in limit; without it, the default.
  LaunchChecker checker(call, grid, block_dim, shared_bytes, opted_in ? kSharedMemoryPerBlockOptIn : shared_limit,
                        pattern);
  detail::set_current_checker(&checker);
  std::exception_ptr failure;
  for (const std::size_t b : shuffled(grid.count(), engine)) {
    Block block;
    block.call = &call;
    block.checker = &checker;
    block.engine = &engine;
    block.grid = grid;
    block.dim = block_dim;
    const auto linear = static_cast<unsigned>(b);
    block.index = dim3(linear % grid.x, linear / grid.x % grid.y, linear / (grid.x * grid.y));
    this_block = &block;
    try {
      checker.begin_block(linear);
      run_block(block);
    } catch (...) {
      failure = std::current_exception();
    }
    this_block = nullptr;
    running_thread = nullptr;
    if (failure) {
      abandon_unfinished(block);
      break;
    }
  }
  if (!failure) {
    try {
      checker.finish();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  detail::set_current_checker(nullptr);
  LaunchRecord record{name, grid, block_dim, shared_bytes, checker.static_shared_bytes(), {}, {}, {}, 0, 0, {}};
  if (!failure) {
    record.memory = checker.counters();
    record.instructions = checker.instructions();
    record.bytes_read_from = checker.bytes_read_by_writer();
    record.host_words_read = checker.host_words_read();
    record.tensor_core_operations = checker.tensor_core_operations();
    record.tensor_core_flops = checker.tensor_core_flops();
  }
  record_launch(std::move(record));
  if (!failure) return;
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& error) {
    record_error(cudaErrorLaunchFailure, error.what());
  } catch (...) {
    record_error(cudaErrorLaunchFailure, std::string("kernel ") + call.name + " threw");
  }
  std::rethrow_exception(failure);
}

}  // namespace detail

dim3 thread_index() { return current_context().thread_idx; }
dim3 block_index() {
  current_fiber();
  return this_block->index;
}
dim3 block_dimensions() {
  current_fiber();
  return this_block->dim;
}
dim3 grid_dimensions() {
  current_fiber();
  return this_block->grid;
}

unsigned this_lane() { return current_context().linear % kWarpSize; }

unsigned active_mask() {
  const Fiber& self = current_fiber();
  const unsigned warp = self.thread.linear / kWarpSize;
  unsigned mask = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned t = warp * kWarpSize + lane;
    if (t < this_block->fibers.size() && this_block->fibers[t].state != State::done) mask |= 1u << lane;
  }
  return mask;
}

void syncthreads() {
  const detail::RuntimeScope inside;
  current_fiber();
  yield(State::at_barrier);
}

int syncthreads_count(int predicate) {
  const detail::RuntimeScope inside;
  Fiber& self = current_fiber();
  self.posted = predicate != 0;
  yield(State::at_barrier);
  return static_cast<int>(self.received);
}

void pause_thread() {
  const detail::RuntimeScope inside;
  Fiber& self = current_fiber();
  self.spun = true;
  yield(State::runnable);
}

void trap() {
  const detail::RuntimeScope inside;
  Fiber& self = current_fiber();
  throw KernelError(std::string("kernel ") + this_block->call->name + ": " + who(*this_block, self) +
                    " called __trap()");
}

void fence(bool every_block) {
  ThreadContext* thread = detail::current_thread();
  LaunchChecker* checker = detail::current_checker();
  if (!thread || !checker) outside_a_launch();
  checker->fence(*thread, every_block);
}

long long thread_clock() { return current_context().accesses; }

namespace {
std::uint64_t warp_call(WarpCall call, const char* name, unsigned mask, std::uint64_t value, int source) {
  const detail::RuntimeScope inside;
  Fiber& self = current_fiber();
  self.call = call;
  self.call_name = name;
  self.mask = mask;
  self.posted = value;
  self.source = source;
  if (!(mask >> (self.thread.linear % kWarpSize) & 1u))
    fail(*this_block, std::string(name) + " in " + who(*this_block, self) + " has a mask (" + hex(mask) +
                          ") without its own lane " + std::to_string(self.thread.linear % kWarpSize));
  yield(State::at_warp_call);
  self.posted = 0;
  return self.received;
}
}  // namespace

void syncwarp(unsigned mask) { warp_call(WarpCall::sync, "__syncwarp", mask, 0, 0); }

void warp_collective(const WarpCollective& operation, unsigned mask, void* data) {
  const detail::RuntimeScope inside;
  Fiber& self = current_fiber();
  self.collective = &operation;
  self.data = data;
  warp_call(WarpCall::collective, operation.what, mask, 0, 0);
  self.collective = nullptr;
  self.data = nullptr;
}

void count_tensor_core_operation(std::uint64_t flops) {
  if (LaunchChecker* checker = detail::current_checker()) checker->count_tensor_core_operation(flops);
}

void check_launch_bounds(unsigned max_threads_per_block, unsigned, unsigned) {
  const detail::RuntimeScope inside;
  current_fiber();
  const unsigned threads = this_block->dim.count();
  if (threads > max_threads_per_block)
    fail(*this_block, "launched with " + std::to_string(threads) + " threads per block " + describe(this_block->dim) +
                          ", more than its __launch_bounds__(" + std::to_string(max_threads_per_block) +
                          ") declares: a GPU refuses the launch");
}

int function_attribute(const char* spelled, int attribute, int value) {
  const std::string text = spelled;
  const std::string kernel = base_name(text.substr(0, text.find_first_of(",(")));
  const auto refuse = [&](const std::string& why) {
    detail::record_error(cudaErrorInvalidValue, "cudaFuncSetAttribute(" + text + "): " + why);
    return static_cast<int>(cudaErrorInvalidValue);
  };
  if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout)
    return value >= -1 && value <= 100 ? static_cast<int>(cudaSuccess)
                                       : refuse("a carveout is a percentage (0 to 100) or -1");
  if (attribute != cudaFuncAttributeMaxDynamicSharedMemorySize)
    return refuse(
        "the CPU runtime models cudaFuncAttributeMaxDynamicSharedMemorySize and "
        "cudaFuncAttributePreferredSharedMemoryCarveout only");
  if (value < 0 || static_cast<std::size_t>(value) > kSharedMemoryPerBlockOptIn)
    return refuse(std::to_string(value) + " bytes: the modelled " + std::string(cuda::kModelledGpu) +
                  " allows a block at most " + std::to_string(kSharedMemoryPerBlockOptIn));
  const std::lock_guard lock(attributes_lock);
  dynamic_shared_limits[kernel] = static_cast<std::size_t>(value);
  return cudaSuccess;
}

std::uint64_t launch_draw() {
  if (!this_block) outside_a_launch();  // also while the scheduler answers a warp-collective call
  return launch_draw_value;
}

void check_matrix_tile(const char* what, int pointer_argument, const void* pointer, unsigned ldm,
                       unsigned element_bytes, const void* pc) {
  const detail::RuntimeScope inside;
  const unsigned multiple = 16 / element_bytes;
  if (reinterpret_cast<std::uintptr_t>(pointer) % 32 != 0)
    fail_at(pc, std::string(what) + ": its pointer (argument " + std::to_string(pointer_argument) +
                    ") is not 256-bit (32-byte) aligned, which the CUDA Programming Guide requires");
  if (ldm % multiple != 0)
    fail_at(pc, std::string(what) + ": ldm = " + std::to_string(ldm) + " is not a multiple of " +
                    std::to_string(multiple) + " elements (16 bytes) of " + std::to_string(element_bytes) +
                    " bytes, which the CUDA Programming Guide requires");
}

[[noreturn]] void fail_at(const void* pc, const std::string& why) {
  const detail::RuntimeScope inside;
  const Fiber& self = current_fiber();
  fail(*this_block, who(*this_block, self) + " at " + detail::source_line(pc) + ": " + why);
}

std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source_lane, const char* what) {
  return warp_call(WarpCall::shuffle, what, mask, value, source_lane);
}

unsigned ballot(unsigned mask, bool predicate) {
  return static_cast<unsigned>(warp_call(WarpCall::ballot, "__ballot_sync", mask, predicate ? 1 : 0, 0));
}

void* dynamic_shared_memory() {
  const detail::RuntimeScope inside;
  current_fiber();
  return this_block->checker->dynamic_shared_memory();
}

void* shared_array(const char* name, int line, std::size_t bytes, std::size_t alignment) {
  const detail::RuntimeScope inside;
  current_fiber();
  std::string error;
  void* array = this_block->checker->shared_array(name, line, bytes, alignment, error);
  if (!array) throw KernelError(error);
  return array;
}

void set_launch_shapes_only(bool on) { detail::launch_shapes_only = on; }

}  // namespace rooflab::cuda_cpu
