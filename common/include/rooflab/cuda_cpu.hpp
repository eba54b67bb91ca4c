// The CUDA subset the course's kernels use, run on the CPU: the same .cu
// source compiles with g++ where there is no nvcc or no GPU, and its kernels
// run here, for correctness (never for timing).
//
// How a launch runs: kernel<<<grid, block, shared_bytes>>>(args) becomes
// rooflab::cuda_cpu::launch(...) (a build step rewrites the chevrons). Each
// block's threads are fibers on one OS thread, switched only at __syncthreads,
// at warp-level calls (__shfl*_sync, __ballot_sync, __syncwarp) and at the
// end of the kernel; blocks are spread over OS threads, each block on a fresh
// one, so that its shared memory (static and dynamic) starts zeroed. Between two of those
// points a thread runs alone, so the order threads run in is a choice: the
// runtime can run them forward, in reverse or shuffled (Order), and
// compare_orders() flags kernels whose results depend on it, which is how
// a shared-memory race (a missing __syncthreads) shows up on a CPU.
//
// What a GPU would hide or hang on is an error naming the kernel
// (rooflab::cuda_cpu::KernelError, also cudaGetLastError()): a __syncthreads
// some threads of the block never reach, a warp-level call whose mask names a
// lane that has exited or waits elsewhere, more than 1024 threads or more
// shared memory than the launch may use.
//
// Not modelled: timing and occupancy, tensor cores, inline PTX, warp
// lock-step (threads of a warp meet only at warp-level calls, as independent
// thread scheduling allows), memory fences and the memory model beyond
// atomics, streams (every call is synchronous).
#pragma once

#include <math.h>
#include <atomic>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "rooflab/cuda_limits.hpp"

namespace rooflab::cuda_cpu {

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr unsigned count() const { return x * y * z; }
};

using cuda::kMaxThreadsPerBlock;
using cuda::kSharedMemoryPerBlock;
using cuda::kWarpSize;

// A launch a GPU would refuse, hang on or leave undefined; names the kernel.
struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The order a block's runnable threads take between two synchronisation points.
enum class Order { forward, reverse, shuffled };

// The calling thread's view: set by the scheduler for the fiber that runs.
struct ThreadState {
  dim3 thread_idx, block_idx, block_dim, grid_dim;
};
const ThreadState& this_thread();

// Block-level and warp-level synchronisation (scheduler.cpp).
void syncthreads();
void syncwarp(unsigned mask);
// Every lane in `mask` contributes `value` and receives lane `source`'s.
// Values travel as 8 bytes: every type the kernels shuffle fits.
std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source_lane, const char* what);
unsigned ballot(unsigned mask, bool predicate);
unsigned this_lane();

// The block's dynamic shared memory (extern __shared__), sized at launch.
void* dynamic_shared_memory();

// Runs `body` (one call per thread) for every block of `grid` × `block`.
// `kernel_name` names the kernel in errors.
void run_kernel(const char* kernel_name, dim3 grid, dim3 block, std::size_t shared_bytes,
                const std::function<void()>& body);

// The order launches use from now on, and the seed of Order::shuffled.
void set_order(Order order, std::uint64_t seed = 1);
Order current_order();

// Runs `launches` once per order (forward, reverse, shuffled with `seed`),
// each time from the same contents of every buffer cudaMalloc'd so far, and
// returns "" when every run left every buffer byte for byte the same, else
// which order and buffer differed: a result that depends on the order threads
// run in between barriers (a shared-memory race). Buffers end as the forward
// run left them.
std::string compare_orders(const std::function<void()>& launches, std::uint64_t seed = 1);

// Whether every launch checks itself for races (on by default; off where the
// environment sets ROOFLAB_CUDA_CPU_RACE_CHECK=0): the launch runs as
// compare_orders() would run it, and a difference between the orders is a
// KernelError naming the kernel. Launches inside compare_orders run once.
void set_race_check(bool on);
bool race_check();

// kernel<<<grid, block, shared_bytes>>>(args...), as the build step writes it.
template <class... Params, class... Args>
void launch(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
            Args&&... args) {
  std::tuple<std::decay_t<Params>...> copies(std::forward<Args>(args)...);  // by value, as CUDA passes them
  run_kernel(kernel_name, grid, block, shared_bytes, [&] { std::apply(kernel, copies); });
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...) as the build step
// rewrites it: launcher("kernel", kernel, grid, block, shared_bytes)(args...).
template <class... Params>
struct Launcher {
  const char* name;
  void (*kernel)(Params...);
  dim3 grid, block;
  std::size_t shared_bytes;
  template <class... Args>
  void operator()(Args&&... args) const {
    launch(name, kernel, grid, block, shared_bytes, std::forward<Args>(args)...);
  }
};
template <class... Params>
Launcher<Params...> launcher(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                             std::size_t shared_bytes = 0, int /*stream: every launch is synchronous*/ = 0) {
  return {name, kernel, grid, block, shared_bytes};
}

}  // namespace rooflab::cuda_cpu

// ---- the CUDA names .cu sources use ----

using rooflab::cuda_cpu::dim3;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
// One copy per running block: a block's fibers share the OS thread that runs
// them, and that thread runs one block at a time.
#define __shared__ static thread_local
#define threadIdx (::rooflab::cuda_cpu::this_thread().thread_idx)
#define blockIdx (::rooflab::cuda_cpu::this_thread().block_idx)
#define blockDim (::rooflab::cuda_cpu::this_thread().block_dim)
#define gridDim (::rooflab::cuda_cpu::this_thread().grid_dim)
#define warpSize (static_cast<int>(::rooflab::cuda_cpu::kWarpSize))

inline void __syncthreads() { rooflab::cuda_cpu::syncthreads(); }
inline void __syncwarp(unsigned mask = 0xffffffffu) { rooflab::cuda_cpu::syncwarp(mask); }

namespace rooflab::cuda_cpu::detail {
template <class T>
std::uint64_t to_bits(T value) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t) && std::is_trivially_copyable_v<T>);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}
// The source lane of each shuffle, within segments of `width` lanes.
inline int within(int lane, int offset_lane, int width) { return (lane / width) * width + offset_lane; }
}  // namespace rooflab::cuda_cpu::detail

template <class T>
T __shfl_sync(unsigned mask, T value, int source, int width = 32) {
  namespace d = rooflab::cuda_cpu::detail;
  const int lane = static_cast<int>(rooflab::cuda_cpu::this_lane());
  const int from = d::within(lane, ((source % width) + width) % width, width);
  return d::from_bits<T>(rooflab::cuda_cpu::shuffle(mask, d::to_bits(value), from, "__shfl_sync"));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = 32) {
  namespace d = rooflab::cuda_cpu::detail;
  const int lane = static_cast<int>(rooflab::cuda_cpu::this_lane());
  int from = lane ^ lane_mask;
  if (from / width != lane / width) from = lane;  // outside the segment: keeps its own value
  return d::from_bits<T>(rooflab::cuda_cpu::shuffle(mask, d::to_bits(value), from, "__shfl_xor_sync"));
}
template <class T>
T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = 32) {
  namespace d = rooflab::cuda_cpu::detail;
  const int lane = static_cast<int>(rooflab::cuda_cpu::this_lane());
  int from = lane + static_cast<int>(delta);
  if (from / width != lane / width) from = lane;
  return d::from_bits<T>(rooflab::cuda_cpu::shuffle(mask, d::to_bits(value), from, "__shfl_down_sync"));
}
template <class T>
T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = 32) {
  namespace d = rooflab::cuda_cpu::detail;
  const int lane = static_cast<int>(rooflab::cuda_cpu::this_lane());
  int from = lane - static_cast<int>(delta);
  if (from < 0 || from / width != lane / width) from = lane;
  return d::from_bits<T>(rooflab::cuda_cpu::shuffle(mask, d::to_bits(value), from, "__shfl_up_sync"));
}
inline unsigned __ballot_sync(unsigned mask, int predicate) { return rooflab::cuda_cpu::ballot(mask, predicate != 0); }

// Atomics: blocks run on several OS threads at once.
template <class T>
T atomicAdd(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_add(value);
}
namespace rooflab::cuda_cpu::detail {
// Stores `value` while `replaces(value, current)`; returns the value it found.
template <class T, class Replaces>
T atomic_replace_while(T* address, T value, Replaces replaces) {
  std::atomic_ref<T> target(*address);
  T seen = target.load();
  while (replaces(value, seen) && !target.compare_exchange_weak(seen, value)) {
  }
  return seen;
}
}  // namespace rooflab::cuda_cpu::detail
template <class T>
T atomicMax(T* address, T value) {
  return rooflab::cuda_cpu::detail::atomic_replace_while(address, value, [](T v, T seen) { return seen < v; });
}
template <class T>
T atomicMin(T* address, T value) {
  return rooflab::cuda_cpu::detail::atomic_replace_while(address, value, [](T v, T seen) { return v < seen; });
}
template <class T>
T atomicExch(T* address, T value) {
  return std::atomic_ref<T>(*address).exchange(value);
}
template <class T>
T atomicCAS(T* address, T compare, T value) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
  return compare;
}

// The math the kernels use, under CUDA's names.
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __fdividef(float x, float y) { return x / y; }
// expf, logf, sqrtf, fmaxf, fminf, fabsf: the C library's, from <math.h>.
// CUDA's integer min and max.
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a < b ? b : a; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a < b ? b : a; }

// ---- the runtime API (runtime_api.cpp) ----

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorLaunchFailure = 719,
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
struct CUevent_cpu;
using cudaEvent_t = CUevent_cpu*;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
// Events exist so that timing code compiles; elapsed times are measured on the
// CPU and say nothing about a GPU.
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, int stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

namespace rooflab::cuda_cpu {
// The message of the last kernel error (cudaGetLastError() returns its code).
std::string last_error_message();
}  // namespace rooflab::cuda_cpu
