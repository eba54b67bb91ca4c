// The CUDA subset the course's kernels use, run on the CPU: the same .cu
// source compiles with g++ where there is no nvcc or no GPU, and its kernels
// run here, checked as compute-sanitizer checks them and counted as Nsight
// Compute counts them (never timed: a CPU says nothing about a GPU's time).
//
// How a launch runs: kernel<<<grid, block, shared_bytes>>>(args) becomes
// rooflab::cuda_cpu::launcher(...) (a build step rewrites the chevrons, each
// `__shared__ T name[…];` into an array of the block's shared memory, and
// registers each __device__ and __constant__ variable). Each block's threads
// are fibers, switched where CUDA threads synchronise (__syncthreads,
// warp-level calls, the end of the kernel), where a thread spins on a flag,
// and, in an order drawn per launch, at volatile and atomic accesses, where
// another thread may act between a read and a write; blocks run one after
// another, in an order shuffled per launch.
//
// Every load, store, atomic and copy of kernel code reaches the runtime: the
// CPU build of a CUDA_FILES source is compiled with GCC's ThreadSanitizer
// instrumentation, whose callbacks (__tsan_read4 …) are the course's own
// (src/cuda_cpu/access_hooks.cpp), not libtsan, and its memcpy, memmove and
// memset are the runtime's (rooflab/cuda_cpu_memory_functions.hpp). On that
// stream the runtime
//   - classifies each address: the thread's own stack, the block's shared
//     memory, a live cudaMalloc buffer, a registered __device__ or
//     __constant__ variable, the kernel's parameters, read-only constants;
//     anything else (host memory of any kind, a freed buffer, past a
//     buffer's end, another thread's stack) is a memcheck error naming the
//     kernel, the thread, the source line and the buffer or argument;
//   - finds uninitialized reads (initcheck): shared memory and cudaMalloc
//     memory start as a pattern, never zeros, and a load of a byte nobody
//     wrote (no kernel, cudaMemcpy or cudaMemset) is an error naming the
//     memory and the line;
//   - finds races exactly: two threads touching the same byte with at least
//     one write, unordered by CUDA's memory model: in one block between the
//     same barriers (lanes ordered by a __syncwarp or shuffle they both took
//     part in, or by a fence and an atomic, are not a race), or in two blocks
//     of one launch unless a __threadfence() and an atomic or volatile write
//     released one to the other; volatile and atomic accesses of one block
//     do not race with each other, atomics never do; the error names both
//     threads, both source lines and the memory;
//   - counts per launch, with Nsight Compute's definitions, global requests
//     and 32-byte sectors, shared-memory requests and bank conflicts, and the
//     unique DRAM sectors touched (LaunchRecord), and records who last wrote
//     every byte of device memory, so that tests can ask whether a result was
//     a kernel's work.
// What a GPU would hang on, fault on or refuse is an error too: a
// __syncthreads some threads never reach, a warp-level call whose mask names
// a lane that has exited or waits elsewhere, a spin-wait nothing will ever
// release, an access its size does not align ("misaligned address"), more
// than 1024 threads per block or than __launch_bounds__ declares, more than
// 48 KiB of shared memory without cudaFuncSetAttribute (227 KiB with it, as
// an H100 allows).
//
// Modern CUDA's own headers come with it (common/cuda_cpu_headers):
// <cuda_fp16.h> and <cuda_bf16.h> (rooflab/cuda_cpu_half.hpp), <mma.h>
// (WMMA: rooflab/cuda_cpu_wmma.hpp, a fragment's layout drawn per launch),
// <cooperative_groups.h>; the vector types (float4 …) are here
// (rooflab/cuda_cpu_vector_types.hpp), and streams and events exist, every
// call synchronous.
//
// Not modelled: timing and occupancy, inline PTX, warp lock-step (threads of
// a warp meet only at warp-level calls, as independent thread scheduling
// allows), caches (DRAM bytes are compulsory traffic), concurrency between
// streams, grid-wide sync, a spin-wait on another block (blocks never run at
// the same time here, and a GPU does not promise they do).
#pragma once

#include <math.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "rooflab/cuda_cpu_vector_types.hpp"
#include "rooflab/cuda_limits.hpp"

namespace rooflab::cuda_cpu {

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr unsigned count() const { return x * y * z; }
};

using cuda::kMaxThreadsPerBlock;
using cuda::kSharedMemoryPerBlock;
using cuda::kSharedMemoryPerBlockOptIn;
using cuda::kWarpSize;

// A launch a GPU would refuse, hang on, fault on or leave undefined; names
// the kernel.
struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The calling thread's coordinates (by value: kernel code reads no runtime memory).
dim3 thread_index();
dim3 block_index();
dim3 block_dimensions();
dim3 grid_dimensions();

// Block-level and warp-level synchronisation (scheduler.cpp).
void syncthreads();
// __syncthreads_count: the number of threads of the block whose predicate is non-zero.
int syncthreads_count(int predicate);
void syncwarp(unsigned mask);
// Every lane in `mask` contributes `value` and receives lane `source`'s.
// Values travel as 8 bytes: every type the kernels shuffle fits.
std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source_lane, const char* what);
unsigned ballot(unsigned mask, bool predicate);
unsigned this_lane();
// A warp-collective operation (WMMA's, the tensor-core atoms'): every lane
// of `mask` calls warp_collective() at the same instruction with the same
// arguments, each posting its `data`; once all have come, the operation's
// `combine` runs once, before any of them goes on, with every lane's data
// (lane_data[lane], null outside the mask). A lane that waits elsewhere,
// has exited or passes other arguments is an error naming the call, its
// source line and the lanes, as on a GPU such a warp is not converged.
struct WarpCollective {
  const char* what;            // "wmma::mma_sync"
  const void* pc;              // the caller's return address: names its source line
  std::uint64_t arguments;     // a digest of what every lane must pass alike
  const char* argument_names;  // "pointer, ldm, layout", for the error
  void (*combine)(void* const* lane_data, unsigned mask);
};
void warp_collective(const WarpCollective& operation, unsigned mask, void* data);
// A number drawn once per launch: what CUDA leaves unspecified (a WMMA
// fragment's element layout) is drawn from it, so that code relying on one
// layout fails on some launch.
std::uint64_t launch_draw();
// Fails the launch: "kernel K: thread (…) of block (…) at file:line: why".
[[noreturn]] void fail_at(const void* pc, const std::string& why);
// What the CUDA Programming Guide requires of a WMMA load's or store's
// pointer (argument `pointer_argument`, 256-bit aligned) and leading
// dimension (a multiple of 16 bytes of `element_bytes` elements); fails the
// launch naming `what` and the argument. (Here, not in kernel code: a
// message built there would be kernel code writing host memory.)
void check_matrix_tile(const char* what, int pointer_argument, const void* pointer, unsigned ldm,
                       unsigned element_bytes, const void* pc);
// Memory access on behalf of kernel code at `pc` (a WMMA load or store):
// checked and counted as that line's access of `bytes` at the device side
// (`from` for a read, `to` for a write), then copied.
void access_for(const void* pc, void* to, const void* from, unsigned bytes, bool write);
// A tensor-core operation of the running launch: `flops` multiply-adds ×2
// (2·m·n·k per mma), counted apart from the CUDA cores' (LaunchRecord).
void count_tensor_core_operation(std::uint64_t flops);
// ldmatrix (rooflab/tensor_core.hpp): one lane's row of an 8 × 8 matrix of
// 16-bit elements, 16 bytes of the block's shared memory at `row`, read for
// the instruction `what` at `pc`: its address must be 16-byte aligned and
// in shared memory, and the read is checked (memcheck, initcheck, races) as
// that lane's, but not counted apart: count_ldmatrix() counts the
// instruction whole.
void read_matrix_row(const void* pc, void* to, const void* row, const char* what);
// One ldmatrix of `matrices` (1, 2 or 4) matrices whose rows start at
// rows[8·m + r]: one shared-memory request, served matrix by matrix (a
// phase of 8 rows of 16 bytes each, at best one wavefront), with the bank
// rule within each phase (rooflab/ldmatrix_banks.hpp).
void count_ldmatrix(const std::uintptr_t* rows, int matrices);
// cp.async (rooflab/tensor_core.hpp). The copy of `bytes` (16) from global
// memory `from` to the block's shared memory `to`, issued by the calling
// thread at `pc`: checks the two addresses (state spaces, alignment) and
// `source_bytes` (at most `bytes`; the rest is zero-filled), reads the
// source now (checked and counted as a global load of that line), and keeps
// the data in flight: it lands in shared memory only at the thread's wait
// that covers its group (async_copy_next_landing). Until then, any access to
// its destination, and any write to its source, is an error naming both
// lines, as the copy may land at any moment in between on a GPU.
void async_copy_issue(const void* pc, void* to, const void* from, unsigned bytes, unsigned source_bytes,
                      const char* what);
// cp.async.commit_group: the thread's copies not yet in a group form one.
void async_copy_commit();
// cp.async.wait_group N: pops the next of the thread's copies that must
// have landed when at most `allowed_pending` of its latest groups are still
// in flight; its data and destination go into the arguments, and the
// caller writes it (access_for, at the copy's line: a shared store).
// Returns false when none is left.
bool async_copy_next_landing(int allowed_pending, const void*& pc, void*& to, void* data, unsigned& bytes);
// Counts a cp.async.wait_group (or wait_all) of the calling thread's warp,
// once per warp: its first lane's (MemoryCounters::async_copy_waits).
void async_copy_wait();
// The lanes of the calling thread's warp that have not exited.
unsigned active_mask();
// __nanosleep, and any wait: lets the block's other threads run.
void pause_thread();
// __trap(): the launch fails, naming the kernel and the thread.
[[noreturn]] void trap();
// __threadfence_block() (`every_block` false), __threadfence() and
// __threadfence_system(): the calling thread's later atomic or volatile write
// releases what it did before, to its block or to every block.
void fence(bool every_block);
// clock64(): a per-thread counter of the accesses it made.
long long thread_clock();

// The block's dynamic shared memory (extern __shared__), sized at launch.
void* dynamic_shared_memory();
// `__shared__ T name[…];` as the build step rewrites it: the block's copy of
// the array declared at `line`, laid out after the dynamic shared memory.
void* shared_array(const char* name, int line, std::size_t bytes, std::size_t alignment);
template <class T>
T& shared_variable(const char* name, int line) {
  return *static_cast<T*>(shared_array(name, line, sizeof(T), alignof(T)));
}

// What Nsight Compute would count for one launch (the sum over its blocks).
// A request is one warp-level instruction: the accesses of a warp's lanes
// that ran the same instruction the same time. Sectors are 32 bytes.
struct MemoryCounters {
  std::uint64_t global_load_requests = 0, global_load_sectors = 0;
  std::uint64_t global_store_requests = 0, global_store_sectors = 0;
  std::uint64_t global_atomic_requests = 0;
  std::uint64_t shared_load_requests = 0, shared_store_requests = 0;
  // Wavefronts the shared-memory requests took, and the ones beyond the
  // fewest their bytes need (bank conflicts: 32 banks of 4 bytes, lanes
  // reading the same word share it).
  std::uint64_t shared_wavefronts = 0, shared_bank_conflicts = 0;
  // Unique 32-byte sectors of device memory read and written: the DRAM
  // traffic a GPU whose caches hold nothing twice cannot avoid.
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  // The most requests (global and shared) any one warp made: the longest
  // chain of waits in the launch, which decides its time where too few warps
  // hide them (a causal kernel's last row tile: twice the average).
  std::uint64_t heaviest_warp_requests = 0;
  // Of the global load requests, those cp.async made (a warp goes on without
  // waiting for them; each also lands as a shared store request), and the
  // cp.async.wait_group (or wait_all) instructions that waited for them, one
  // per warp: a kernel that overlaps its copies with its work waits once per
  // group, not once per load.
  std::uint64_t async_copy_requests = 0, async_copy_waits = 0;
};

// One source instruction's memory requests over a launch, what Nsight
// Compute's source view shows line by line: `pc` is the instruction, and
// rooflab::cuda_cpu::source_line(pc) names its line ("src/flash_attention.cu:57").
struct InstructionCounters {
  const void* pc = nullptr;
  bool shared = false;  // shared memory, else global
  bool store = false;   // a store, else a load (or an atomic)
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;                         // global: the 32-byte sectors its requests touched
  std::uint64_t wavefronts = 0, bank_conflicts = 0;  // shared
};
// "src/file.cu:57" for an instruction of kernel code (addr2line over the
// build's line tables, asked once per instruction).
std::string source_line(const void* pc);

// One kernel launch, as the runtime saw it.
struct LaunchRecord {
  std::string kernel;  // its name without namespaces or template arguments
  dim3 grid, block;
  std::size_t dynamic_shared_bytes = 0, static_shared_bytes = 0;
  MemoryCounters memory;
  // The bytes of device memory it read, by who last wrote them ("cudaMemcpy
  // from the host", "cudaMemset", a kernel's name), and the distinct 4-byte
  // words it read that a cudaMemcpy from the host had put there (sorted; at
  // most 2^20): what a test asks to know that a kernel read its inputs.
  std::vector<std::pair<std::string, std::uint64_t>> bytes_read_from;
  std::vector<std::uint32_t> host_words_read;
  // Tensor-core operations (wmma::mma_sync, the mma atoms) and their FLOPs
  // (2·m·n·k each): what a tensor-core kernel must show it ran.
  std::uint64_t tensor_core_operations = 0, tensor_core_flops = 0;
  // Its loads and stores instruction by instruction (ldmatrix and cp.async
  // aside: they count in `memory` only), most requests first.
  std::vector<InstructionCounters> instructions;
};
// The launches made since the last call (at most the last 4096), oldest first.
std::vector<LaunchRecord> take_launch_records();

// On: every launch is checked (block size, shared memory; not what a kernel
// checks as it starts, such as __launch_bounds__) and recorded with its grid,
// block and shared memory, and then not run: no thread executes,
// nothing is counted, outputs are left unwritten. What a test turns on to see
// a launcher's shape at a size the runtime would take minutes to run (a05's
// SM coverage at N = 1024, B·H = 16); never on while results matter.
void set_launch_shapes_only(bool on);

// What cudaMemcpy brought back to the host since the last call: the distinct
// 4-byte words (sorted), by who last wrote them on the device (a kernel's
// name, "cudaMemset", "cudaMemcpy from the host", "never written"). A test
// asks it whether a result came off the device as a kernel wrote it.
struct DeviceToHostWords {
  std::string writer;
  std::vector<std::uint32_t> words;
};
std::vector<DeviceToHostWords> take_device_to_host_words();

// A __device__ or __constant__ variable, as the build step registers each:
// device memory kernels may use (other host variables are not).
bool register_device_variable(const void* address, std::size_t bytes, const char* name);

// ---- how a launch reaches the runtime ----

namespace detail {
// One pointer argument of a launch: which one (from 1), and its value.
struct PointerArgument {
  int position;
  const void* value;
};
// The kernel's call: `entry(call)` runs the kernel once, in the calling fiber.
struct KernelCall {
  const char* name;
  void (*entry)(void* call);
  void* call;
  std::size_t call_bytes;  // the parameters' copy, which kernel code may read
  const PointerArgument* pointers;
  std::size_t pointer_count;
};
void run_kernel(const KernelCall& call, dim3 grid, dim3 block, std::size_t shared_bytes);

// `kernel` called with the launch's copy of its arguments.
template <class Kernel, class Tuple>
struct Call {
  Kernel kernel;
  Tuple arguments;
  static void entry(void* call) {
    auto& self = *static_cast<Call*>(call);
    std::apply(self.kernel, self.arguments);
  }
};
template <class T>
void note_pointer(std::vector<PointerArgument>& pointers, int position, const T& value) {
  if constexpr (std::is_pointer_v<T>)
    pointers.push_back({position, reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(value))});
}
template <class Kernel, class Tuple>
void run_call(const char* name, Call<Kernel, Tuple>& call, dim3 grid, dim3 block, std::size_t shared_bytes) {
  std::vector<PointerArgument> pointers;
  std::apply(
      [&](const auto&... value) {
        int position = 0;
        (note_pointer(pointers, ++position, value), ...);
      },
      call.arguments);
  run_kernel({name, &Call<Kernel, Tuple>::entry, &call, sizeof call, pointers.data(), pointers.size()}, grid, block,
             shared_bytes);
}
}  // namespace detail

// Runs `kernel` (a function) with `args`, each converted to its parameter's
// type once, when the launch starts, as CUDA copies a kernel's arguments.
template <class... Params, class... Args>
void launch(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
            Args&&... args) {
  using Tuple = std::tuple<std::decay_t<Params>...>;
  detail::Call<void (*)(Params...), Tuple> call{kernel, Tuple(std::forward<Args>(args)...)};
  detail::run_call(kernel_name, call, grid, block, shared_bytes);
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...) as the build step
// rewrites it:
//   launcher("kernel", grid, block, shared_bytes, stream)(
//       [&](auto&... arguments) { kernel(arguments...); })(args...)
// The lambda calls the kernel as the chevrons do, so that a template kernel's
// arguments are deduced from the launch's arguments, as nvcc deduces them.
// The launch records the kernel by its name without namespaces or template
// arguments ("flash_forward" for a::flash_forward<64>).
template <class Kernel>
struct BoundLaunch {
  const char* name;
  Kernel kernel;
  dim3 grid, block;
  std::size_t shared_bytes;
  template <class... Args>
  void operator()(Args&&... args) const {
    using Tuple = std::tuple<std::decay_t<Args>...>;  // the arguments, copied as CUDA copies them
    detail::Call<Kernel, Tuple> call{kernel, Tuple(std::forward<Args>(args)...)};
    detail::run_call(name, call, grid, block, shared_bytes);
  }
};
struct LaunchConfiguration {
  const char* name;
  dim3 grid, block;
  std::size_t shared_bytes;
  template <class Kernel>
  BoundLaunch<Kernel> operator()(Kernel kernel) const {
    return {name, kernel, grid, block, shared_bytes};
  }
};
}  // namespace rooflab::cuda_cpu

// Streams exist so that code written for them compiles and runs; every call
// is synchronous here, as if each ran alone on the default stream.
struct CUstream_cpu;
using cudaStream_t = CUstream_cpu*;

namespace rooflab::cuda_cpu {

inline LaunchConfiguration launcher(const char* name, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                    cudaStream_t /*stream: every launch is synchronous*/ = nullptr) {
  return {name, grid, block, shared_bytes};
}

// __launch_bounds__(max_threads, …) as the build step rewrites it: the first
// statement of the kernel's body, so that a launch with more threads per
// block than the kernel declares fails, as a GPU refuses it.
void check_launch_bounds(unsigned max_threads_per_block, unsigned min_blocks_per_sm = 0,
                         unsigned max_blocks_per_cluster = 0);

// cudaFuncSetAttribute(kernel, attribute, value) as the macro below spells
// it: `spelled` is the call's argument text, whose first name is the
// kernel's. Attributes are kept by the kernel's name: the instantiations of
// a template kernel share them. Returns a cudaError_t.
int function_attribute(const char* spelled, int attribute, int value);
template <class Kernel>
int set_function_attribute(const char* spelled, Kernel* /*kernel*/, int attribute, int value) {
  static_assert(std::is_function_v<Kernel>, "cudaFuncSetAttribute takes a kernel");
  return function_attribute(spelled, attribute, value);
}

}  // namespace rooflab::cuda_cpu

// ---- the CUDA names .cu sources use ----

using rooflab::cuda_cpu::dim3;

// A kernel stays a function of its own, never inlined into a launch: every
// launch of it runs one body, whose line table names the .cu file's lines.
#define __global__ __attribute__((noinline))
#define __device__
#define __host__
#define __constant__
// What the build step writes after each __device__ or __constant__ variable:
// its registration, before main, as device memory kernels may use.
#define ROOFLAB_DEVICE_VARIABLE_NAME2(line) rooflab_device_variable_##line
#define ROOFLAB_DEVICE_VARIABLE_NAME(line) ROOFLAB_DEVICE_VARIABLE_NAME2(line)
#define ROOFLAB_REGISTER_DEVICE_VARIABLE(variable)                               \
  [[maybe_unused]] static const bool ROOFLAB_DEVICE_VARIABLE_NAME(__COUNTER__) = \
      ::rooflab::cuda_cpu::register_device_variable(&(variable), sizeof(variable), #variable)
#define __forceinline__ inline
// Empty: libstdc++ spells its own attribute __noinline__ too.
#define __noinline__
#define __restrict__ __restrict
#define __align__(n) alignas(n)
// The build step turns __launch_bounds__(…) into a check at the start of
// the kernel's body (cmake/cuda_cpu_rewrite.cmake); left here, it is empty.
#define __launch_bounds__(...)
// Declarations the build step did not rewrite (code that includes this header
// directly): one copy per OS thread, which runs one block at a time.
#define __shared__ static thread_local
#define threadIdx (::rooflab::cuda_cpu::thread_index())
#define blockIdx (::rooflab::cuda_cpu::block_index())
#define blockDim (::rooflab::cuda_cpu::block_dimensions())
#define gridDim (::rooflab::cuda_cpu::grid_dimensions())
#define warpSize (static_cast<int>(::rooflab::cuda_cpu::kWarpSize))

inline void __syncthreads() { rooflab::cuda_cpu::syncthreads(); }
inline int __syncthreads_count(int predicate) { return rooflab::cuda_cpu::syncthreads_count(predicate); }
inline int __syncthreads_or(int predicate) { return rooflab::cuda_cpu::syncthreads_count(predicate) > 0; }
inline int __syncthreads_and(int predicate) {
  const dim3 block = rooflab::cuda_cpu::block_dimensions();
  return rooflab::cuda_cpu::syncthreads_count(predicate) == static_cast<int>(block.count());
}
inline void __syncwarp(unsigned mask = 0xffffffffu) { rooflab::cuda_cpu::syncwarp(mask); }
inline unsigned __activemask() { return rooflab::cuda_cpu::active_mask(); }
inline void __threadfence() { rooflab::cuda_cpu::fence(true); }
inline void __threadfence_block() { rooflab::cuda_cpu::fence(false); }
inline void __threadfence_system() { rooflab::cuda_cpu::fence(true); }
inline void __nanosleep(unsigned) { rooflab::cuda_cpu::pause_thread(); }
[[noreturn]] inline void __trap() { rooflab::cuda_cpu::trap(); }
inline long long clock64() { return rooflab::cuda_cpu::thread_clock(); }

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
inline int __any_sync(unsigned mask, int predicate) { return rooflab::cuda_cpu::ballot(mask, predicate != 0) != 0; }
inline int __all_sync(unsigned mask, int predicate) {
  return (rooflab::cuda_cpu::ballot(mask, predicate != 0) & mask) == mask;
}

// Atomics: out of line (src/cuda_cpu/atomics.cpp), where each also tells
// the runtime of its access, as an atomic one.
namespace rooflab::cuda_cpu::detail {
enum class AtomicOp { add, sub, exchange, min, max, and_, or_, xor_, increment, decrement, compare_exchange };
// Returns the old value; `operand` is the value (the compare value for
// compare_exchange, whose new value is `swap`).
template <class T>
T atomic(T* address, T operand, AtomicOp op, T swap = T{});
}  // namespace rooflab::cuda_cpu::detail

#define ROOFLAB_CUDA_CPU_ATOMIC(name, op, T)                                                                   \
  inline T name(T* address, T value) { return rooflab::cuda_cpu::detail::atomic(address, value, op); }         \
  inline T name##_block(T* address, T value) { return rooflab::cuda_cpu::detail::atomic(address, value, op); } \
  inline T name##_system(T* address, T value) { return rooflab::cuda_cpu::detail::atomic(address, value, op); }
#define ROOFLAB_CUDA_CPU_INTEGER_ATOMICS(T)                                                                           \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicAdd, rooflab::cuda_cpu::detail::AtomicOp::add, T)                                     \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicExch, rooflab::cuda_cpu::detail::AtomicOp::exchange, T)                               \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicMin, rooflab::cuda_cpu::detail::AtomicOp::min, T)                                     \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicMax, rooflab::cuda_cpu::detail::AtomicOp::max, T)                                     \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicAnd, rooflab::cuda_cpu::detail::AtomicOp::and_, T)                                    \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicOr, rooflab::cuda_cpu::detail::AtomicOp::or_, T)                                      \
  ROOFLAB_CUDA_CPU_ATOMIC(atomicXor, rooflab::cuda_cpu::detail::AtomicOp::xor_, T)                                    \
  inline T atomicCAS(T* address, T compare, T value) {                                                                \
    return rooflab::cuda_cpu::detail::atomic(address, compare, rooflab::cuda_cpu::detail::AtomicOp::compare_exchange, \
                                             value);                                                                  \
  }
ROOFLAB_CUDA_CPU_INTEGER_ATOMICS(int)
ROOFLAB_CUDA_CPU_INTEGER_ATOMICS(unsigned)
ROOFLAB_CUDA_CPU_INTEGER_ATOMICS(unsigned long long)
ROOFLAB_CUDA_CPU_ATOMIC(atomicMin, rooflab::cuda_cpu::detail::AtomicOp::min, long long)
ROOFLAB_CUDA_CPU_ATOMIC(atomicMax, rooflab::cuda_cpu::detail::AtomicOp::max, long long)
ROOFLAB_CUDA_CPU_ATOMIC(atomicSub, rooflab::cuda_cpu::detail::AtomicOp::sub, int)
ROOFLAB_CUDA_CPU_ATOMIC(atomicSub, rooflab::cuda_cpu::detail::AtomicOp::sub, unsigned)
ROOFLAB_CUDA_CPU_ATOMIC(atomicInc, rooflab::cuda_cpu::detail::AtomicOp::increment, unsigned)
ROOFLAB_CUDA_CPU_ATOMIC(atomicDec, rooflab::cuda_cpu::detail::AtomicOp::decrement, unsigned)
ROOFLAB_CUDA_CPU_ATOMIC(atomicAdd, rooflab::cuda_cpu::detail::AtomicOp::add, float)
ROOFLAB_CUDA_CPU_ATOMIC(atomicAdd, rooflab::cuda_cpu::detail::AtomicOp::add, double)
ROOFLAB_CUDA_CPU_ATOMIC(atomicExch, rooflab::cuda_cpu::detail::AtomicOp::exchange, float)
ROOFLAB_CUDA_CPU_ATOMIC(atomicMin, rooflab::cuda_cpu::detail::AtomicOp::min, float)
ROOFLAB_CUDA_CPU_ATOMIC(atomicMax, rooflab::cuda_cpu::detail::AtomicOp::max, float)
#undef ROOFLAB_CUDA_CPU_INTEGER_ATOMICS
#undef ROOFLAB_CUDA_CPU_ATOMIC

// Bits and conversions.
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned reversed = 0;
  for (int bit = 0; bit < 32; ++bit) reversed |= ((x >> bit) & 1u) << (31 - bit);
  return reversed;
}
inline float __int_as_float(int x) { return rooflab::cuda_cpu::detail::from_bits<float>(static_cast<unsigned>(x)); }
inline int __float_as_int(float x) { return static_cast<int>(rooflab::cuda_cpu::detail::to_bits(x)); }
inline float __uint_as_float(unsigned x) { return rooflab::cuda_cpu::detail::from_bits<float>(x); }
inline unsigned __float_as_uint(float x) { return static_cast<unsigned>(rooflab::cuda_cpu::detail::to_bits(x)); }
inline double __longlong_as_double(long long x) {
  return rooflab::cuda_cpu::detail::from_bits<double>(static_cast<std::uint64_t>(x));
}
inline long long __double_as_longlong(double x) {
  return static_cast<long long>(rooflab::cuda_cpu::detail::to_bits(x));
}
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }

// The math the kernels use, under CUDA's names.
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __saturatef(float x) { return std::isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
template <class T>
T __ldg(const T* address) {
  return *address;
}
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
  cudaErrorNotSupported = 801,
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
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
inline constexpr unsigned cudaStreamDefault = 0, cudaStreamNonBlocking = 1;
inline constexpr unsigned cudaEventDefault = 0, cudaEventDisableTiming = 2;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
// __constant__ and __device__ variables are plain variables here (registered
// as device memory by the build step); the copies check their bounds.
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* from, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind /*kind*/ = cudaMemcpyHostToDevice) {
  if (offset + bytes > sizeof(T) || (bytes && !from)) return cudaErrorInvalidValue;
  std::memcpy(reinterpret_cast<char*>(&symbol) + offset, from, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* to, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind /*kind*/ = cudaMemcpyDeviceToHost) {
  if (offset + bytes > sizeof(T) || (bytes && !to)) return cudaErrorInvalidValue;
  std::memcpy(to, reinterpret_cast<const char*>(&symbol) + offset, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
// The kernel's attribute, for its launches (by the kernel's name; see
// rooflab::cuda_cpu::set_function_attribute).
#define cudaFuncSetAttribute(...) \
  static_cast<cudaError_t>(::rooflab::cuda_cpu::set_function_attribute(#__VA_ARGS__, __VA_ARGS__))
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
// Events exist so that timing code compiles and runs; cudaEventElapsedTime
// returns cudaErrorNotSupported, saying that the CPU runtime times nothing
// (a time measured here would say nothing of a GPU).
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

namespace rooflab::cuda_cpu {
// The message of the last kernel error (cudaGetLastError() returns its code).
std::string last_error_message();
}  // namespace rooflab::cuda_cpu
