// What the code under test did, beyond what it returned: the CUDA kernels it
// launched in the CPU runtime (with the runtime's memory counters) and the
// provided functions it called (rooflab/call_counts.hpp). Tests use it to
// require structure: a05's three standard-attention kernels, a06's split and
// merge kernels, a decode loop that steps through the cache.
//
// In a test binary that links the code, take_worker_report() reads this
// process (src/worker_report_local.cpp); in a grading, the verdict process
// asks the worker over the RPC, and the worker answers from its own process
// (autograder/rpc). Either way it is the course's runtime that recorded it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rooflab::testing {

// One instruction's loads or stores over a launch
// (rooflab::cuda_cpu::InstructionCounters): `pc` is that instruction's
// address in the process that ran it, which source_line(pc) names there (a
// profile does; the verdict, across the grader's RPC, has no use for it).
struct InstructionRequests {
  std::uint64_t pc = 0;
  bool shared = false;  // shared memory, else global
  bool store = false;   // a store, else a load (or an atomic)
  std::uint64_t requests = 0, sectors = 0, wavefronts = 0, bank_conflicts = 0;
};

struct KernelLaunch {
  std::string kernel;
  std::array<std::uint32_t, 3> grid{}, block{};
  std::uint64_t dynamic_shared_bytes = 0, static_shared_bytes = 0;
  // rooflab::cuda_cpu::MemoryCounters, field by field.
  std::uint64_t global_load_requests = 0, global_load_sectors = 0;
  std::uint64_t global_store_requests = 0, global_store_sectors = 0;
  std::uint64_t global_atomic_requests = 0;
  std::uint64_t shared_load_requests = 0, shared_store_requests = 0;
  std::uint64_t shared_wavefronts = 0, shared_bank_conflicts = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  std::uint64_t heaviest_warp_requests = 0;
  std::uint64_t async_copy_requests = 0, async_copy_waits = 0;
  // What it read of device memory, by who last wrote it, and the distinct
  // 4-byte words it read that a copy from the host had put there (sorted).
  std::vector<std::pair<std::string, std::uint64_t>> bytes_read_from;
  std::vector<std::uint32_t> host_words_read;
  // Tensor-core operations (wmma::mma_sync, the mma atoms) and their FLOPs.
  std::uint64_t tensor_core_operations = 0, tensor_core_flops = 0;
  // Its requests instruction by instruction, most first.
  std::vector<InstructionRequests> instructions;
};

// What cudaMemcpy brought back to the host: the distinct 4-byte words
// (sorted), by who last wrote them on the device.
struct CopiedBack {
  std::string writer;
  std::vector<std::uint32_t> words;
};

struct WorkerReport {
  // False where kernels ran on a GPU, or with no CUDA code at all: nothing
  // recorded launches, and tests that require kernels skip that check.
  bool kernels_recorded = false;
  std::vector<KernelLaunch> launches;  // since the last report, oldest first
  std::map<std::string, std::uint64_t> calls;
  std::vector<CopiedBack> copied_back;  // since the last report
};

// What happened since the last call (the first call reports everything so far).
WorkerReport take_worker_report();

// "src/flash_attention.cu:57": the line of an instruction of kernel code in
// this process; "" without the CPU runtime.
std::string source_line(std::uint64_t pc);

// While one lives, the code under test's CUDA launches are recorded with
// their shape (grid, block, shared memory) but not run
// (rooflab::cuda_cpu::set_launch_shapes_only): a test of a launcher's shape at
// a size the CPU runtime would take minutes to run. In a grading the verdict
// asks the worker, which holds the code. Nothing where kernels run on a GPU.
class LaunchShapesOnly {
 public:
  LaunchShapesOnly();
  ~LaunchShapesOnly();
  LaunchShapesOnly(const LaunchShapesOnly&) = delete;
  LaunchShapesOnly& operator=(const LaunchShapesOnly&) = delete;
};

// The kernel names of `report`'s launches, in order.
std::vector<std::string> kernel_names(const WorkerReport& report);

}  // namespace rooflab::testing
