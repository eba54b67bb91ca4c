// Where a CUDA kernel would land on a real GPU, from what the CPU runtime
// counted of it and the shape it was launched with: not the roofline's bound
// (rooflab/kernel_roofline.hpp), which assumes every SM busy and every
// latency hidden, but a model of what stops a kernel short of it.
//
//   1. Occupancy, as CUDA's occupancy calculator computes it: how many of
//      the kernel's blocks fit on one SM at once, limited by threads, blocks,
//      registers (allocated per warp in units of 256) or shared memory (plus
//      1 KiB the system keeps per block from sm_80 on).
//   2. Coverage and waves: blocks go to SMs round-robin, so the busiest SM
//      runs ceil(blocks / SMs) of them, in ceil(that / resident) rounds. A
//      grid of fewer blocks than SMs leaves SMs idle; one block more than a
//      wave costs a whole round.
//   3. Throughput on the busiest SM: its share of the warp instructions
//      issued (an FMA is 2 FLOPs a lane, one instruction a warp; each load or
//      store request another), of the shared-memory wavefronts (one a clock:
//      requests plus bank conflicts), of the L1's sectors (four a clock), of
//      the tensor cores' FLOPs; and, chip-wide, the DRAM bytes.
//   4. Latency that too few warps cannot hide: a warp waits for each of its
//      shared-memory requests before the next (about 30 cycles each) and for
//      its global requests, several in flight at once. With many warps on an
//      SM these waits overlap and throughput decides; with a warp or two per
//      scheduler they decide: the busiest SM's rounds of resident blocks take
//      the average warp's chain each, but one of them the heaviest warp's
//      (with the causal mask the last row tile's, twice the average).
// The time is the largest of these, plus the launch. Real kernels differ in
// what the counters cannot see (instruction mix beyond FMAs, registers
// spilled to local memory, the clock under load), so it is an estimate to
// reason with, never a score; docs/benchmarks.md compares it with every
// recorded measurement (plots/data/gpu_model_calibration.csv).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab::gpu_model {

// What the model needs to know of a GPU: its SMs' limits (CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability") and
// rates. The fp32 peak is SMs × fp32 lanes × 2 × clock, the tensor peak and
// the DRAM bandwidth those of rooflab/kernel_roofline.hpp for the same id.
struct Architecture {
  std::string id;  // as --gpu names it: "h100", "a100", "t4", "rtx4090"
  std::string name;
  int compute_capability = 0;  // 90, 80, 75, 89
  int multiprocessors = 0;
  double clock_hz = 0;  // boost clock: a kernel timed alone runs at it
  int max_threads_per_sm = 0, max_blocks_per_sm = 0;
  int registers_per_sm = 0;  // 32-bit registers
  int max_registers_per_thread = 255;
  std::size_t shared_bytes_per_sm = 0;         // the largest carve-out
  std::size_t max_shared_bytes_per_block = 0;  // with cudaFuncSetAttribute's opt-in
  std::size_t shared_bytes_reserved_per_block = 0;
  int schedulers_per_sm = 4;
  int fp32_lanes_per_sm = 0;
  double tensor_flops_per_s = 0;  // dense fp16 with fp32 accumulation
  double dram_bytes_per_s = 0;
};

// H100 first (the default), then A100, T4 and RTX 4090: the GPUs
// rooflab/kernel_roofline.hpp knows.
const std::vector<Architecture>& architectures();
// Throws std::invalid_argument naming `id` and the known ids.
const Architecture& find_architecture(std::string_view id);

inline constexpr int kWarpSize = 32;
inline constexpr int kRegisterAllocationUnit = 256;        // registers, per warp
inline constexpr std::size_t kSharedAllocationUnit = 128;  // bytes, per block
// Cycles a warp waits for one shared-memory load (H100, A100: about 30),
// each load taken as waiting for the one before.
inline constexpr double kSharedLatencyCycles = 30;
// Cycles a warp waits for a global request, and how many of its requests are
// in flight at once: one, as in the course's tile loops, which store each
// loaded value to shared memory before the next load. The two were chosen on
// the recorded H100 runs (plots/data/gpu_model_calibration.csv), which they
// put within 2× of every measured time (tools.GpuModel checks it).
inline constexpr double kGlobalLatencyCycles = 600;
inline constexpr double kGlobalRequestsInFlight = 1;
// A kernel launch, timed alone with events: a few microseconds.
inline constexpr double kLaunchSeconds = 3e-6;
// Registers per thread when nvcc's count is not known.
inline constexpr int kAssumedRegisters = 64;

struct LaunchShape {
  double blocks = 0;  // per launch
  int threads_per_block = 0;
  std::size_t shared_bytes_per_block = 0;  // static and dynamic
  int registers_per_thread = 0;            // 0: not known (kAssumedRegisters)
};

struct Occupancy {
  int blocks_per_sm = 0;   // resident at once; 0: the block does not fit
  std::string limited_by;  // "threads", "blocks", "registers", "shared memory"
  int warps_per_sm = 0;
  double fraction = 0;  // warps_per_sm over the SM's maximum
  bool registers_assumed = false;
};
Occupancy occupancy(const LaunchShape& shape, const Architecture& gpu);

// What a kernel did over `launches` launches of the same shape.
struct KernelWork {
  double launches = 1;
  double cuda_core_flops = 0, tensor_core_flops = 0, dram_bytes = 0;
  double global_requests = 0, global_sectors = 0;
  double shared_requests = 0, shared_bank_conflicts = 0;
  // The most requests one warp made in a launch (0: not known, the average
  // warp's taken): its chain of waits is the launch's longest.
  double heaviest_warp_requests = 0;
  // Of the global requests, those cp.async made, which a warp issues without
  // waiting (each also lands as one of the shared requests), and the waits
  // for them, one per warp and cp.async.wait_group: a global latency each.
  double async_copy_requests = 0, async_copy_waits = 0;
};

struct Estimate {
  Occupancy occupancy;
  double busiest_sm_blocks = 0;  // per launch
  double rounds = 0;             // of resident blocks on the busiest SM
  double sm_coverage = 0;        // the fraction of SMs given any block
  // Each limit alone, for all launches, in seconds.
  double issue_s = 0, shared_s = 0, l1_s = 0, tensor_s = 0, dram_s = 0, latency_s = 0, launch_s = 0;
  double seconds = 0;
  std::string limited_by;  // "instruction issue", "shared memory", "L1", "tensor cores", "DRAM", "latency"
};
// Throws std::invalid_argument when the block does not fit on an SM.
Estimate estimate(const KernelWork& work, const LaunchShape& shape, const Architecture& gpu);

}  // namespace rooflab::gpu_model
