#include "rooflab/gpu_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rooflab/kernel_roofline.hpp"

namespace rooflab::gpu_model {
namespace {

Architecture with_rates(Architecture gpu) {
  const roofline::CudaCoreGpu& rates = roofline::find_cuda_core_gpu(gpu.id);
  gpu.tensor_flops_per_s = rates.tensor_flops_per_s;
  gpu.dram_bytes_per_s = rates.bytes_per_s;
  return gpu;
}

std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

const std::vector<Architecture>& architectures() {
  // The clocks are the boost clocks that make SMs × lanes × 2 × clock the
  // fp32 peaks of kernel_roofline.cpp (tools.GpuModel checks it).
  static const std::vector<Architecture> gpus{
      with_rates(
          {"h100", "H100 SXM", 90, 132, 1.98e9, 2048, 32, 65536, 255, 228 * 1024, 227 * 1024, 1024, 4, 128, 0, 0}),
      with_rates(
          {"a100", "A100 SXM 80GB", 80, 108, 1.41e9, 2048, 32, 65536, 255, 164 * 1024, 163 * 1024, 1024, 4, 64, 0, 0}),
      with_rates({"t4", "T4", 75, 40, 1.59e9, 1024, 16, 65536, 255, 64 * 1024, 64 * 1024, 0, 4, 64, 0, 0}),
      with_rates(
          {"rtx4090", "RTX 4090", 89, 128, 2.52e9, 1536, 24, 65536, 255, 100 * 1024, 99 * 1024, 1024, 4, 128, 0, 0}),
  };
  return gpus;
}

const Architecture& find_architecture(std::string_view id) {
  std::string known;
  for (const Architecture& gpu : architectures()) {
    if (gpu.id == id) return gpu;
    known += (known.empty() ? "" : ", ") + gpu.id;
  }
  throw std::invalid_argument("--gpu " + std::string(id) + ": not a GPU the model knows (" + known + ")");
}

Occupancy occupancy(const LaunchShape& shape, const Architecture& gpu) {
  Occupancy result;
  const int warps_per_block = (shape.threads_per_block + kWarpSize - 1) / kWarpSize;
  if (shape.threads_per_block <= 0 || shape.threads_per_block > 1024 ||
      shape.shared_bytes_per_block > gpu.max_shared_bytes_per_block) {
    result.limited_by = shape.threads_per_block > 1024 || shape.threads_per_block <= 0 ? "threads" : "shared memory";
    return result;
  }
  result.registers_assumed = shape.registers_per_thread <= 0;
  const int registers = result.registers_assumed ? kAssumedRegisters : shape.registers_per_thread;
  // Registers go to warps in units of 256, from each scheduler's quarter of
  // the register file: a warp lives on one scheduler.
  const int per_warp = static_cast<int>(
      round_up(static_cast<std::size_t>(registers) * kWarpSize, static_cast<std::size_t>(kRegisterAllocationUnit)));
  const int warps_by_registers = gpu.schedulers_per_sm * (gpu.registers_per_sm / gpu.schedulers_per_sm / per_warp);
  const std::size_t shared =
      shape.shared_bytes_per_block == 0
          ? gpu.shared_bytes_reserved_per_block
          : round_up(shape.shared_bytes_per_block, kSharedAllocationUnit) + gpu.shared_bytes_reserved_per_block;
  const struct {
    const char* name;
    int blocks;
  } limits[] = {
      {"threads", gpu.max_threads_per_sm / (warps_per_block * kWarpSize)},
      {"blocks", gpu.max_blocks_per_sm},
      {"registers", warps_by_registers / warps_per_block},
      {"shared memory", shared == 0 ? gpu.max_blocks_per_sm : static_cast<int>(gpu.shared_bytes_per_sm / shared)},
  };
  result.blocks_per_sm = limits[0].blocks;
  result.limited_by = limits[0].name;
  for (const auto& limit : limits)
    if (limit.blocks < result.blocks_per_sm) {
      result.blocks_per_sm = limit.blocks;
      result.limited_by = limit.name;
    }
  result.warps_per_sm = result.blocks_per_sm * warps_per_block;
  result.fraction = static_cast<double>(result.warps_per_sm) * kWarpSize / gpu.max_threads_per_sm;
  return result;
}

Estimate estimate(const KernelWork& work, const LaunchShape& shape, const Architecture& gpu) {
  Estimate result;
  result.occupancy = occupancy(shape, gpu);
  if (result.occupancy.blocks_per_sm <= 0)
    throw std::invalid_argument("a block of " + std::to_string(shape.threads_per_block) + " threads and " +
                                std::to_string(shape.shared_bytes_per_block) +
                                " bytes of shared memory does not fit on an " + gpu.name + "'s multiprocessor");
  if (shape.blocks <= 0 || work.launches <= 0) return result;
  const double sms = gpu.multiprocessors, clock = gpu.clock_hz, launches = work.launches;
  result.busiest_sm_blocks = std::ceil(shape.blocks / sms);
  result.rounds = std::ceil(result.busiest_sm_blocks / result.occupancy.blocks_per_sm);
  result.sm_coverage = std::min(shape.blocks, sms) / sms;
  // The busiest SM's share of all launches' work (each launch's is spread alike).
  const double share = result.busiest_sm_blocks / shape.blocks;
  const double requests = work.global_requests + work.shared_requests;
  result.issue_s = share * (work.cuda_core_flops / (2.0 * kWarpSize) + requests) / (gpu.schedulers_per_sm * clock);
  result.shared_s = share * (work.shared_requests + work.shared_bank_conflicts) / clock;
  result.l1_s = share * work.global_sectors / (4 * clock);
  result.tensor_s = share * work.tensor_core_flops / (gpu.tensor_flops_per_s / sms);
  result.dram_s = work.dram_bytes / gpu.dram_bytes_per_s;
  // A warp's own chain of waits, once per round of resident blocks: the
  // average warp's, and in one round the heaviest warp's. A cp.async is no
  // wait (nor is its landing in shared memory); the wait_group for a group
  // of them is one global latency, however many copies it covers.
  const double warps = launches * shape.blocks * ((shape.threads_per_block + kWarpSize - 1) / kWarpSize);
  const double asynchronous = std::min(work.async_copy_requests, std::min(work.global_requests, work.shared_requests));
  const double wait_cycles = (work.shared_requests - asynchronous) * kSharedLatencyCycles +
                             (work.global_requests - asynchronous) * kGlobalLatencyCycles / kGlobalRequestsInFlight +
                             work.async_copy_waits * kGlobalLatencyCycles;
  const double chain_cycles = wait_cycles / warps;
  const double heaviest_chain_cycles =
      requests > 0 ? std::max(chain_cycles, work.heaviest_warp_requests * wait_cycles / requests) : chain_cycles;
  result.latency_s = launches * ((result.rounds - 1) * chain_cycles + heaviest_chain_cycles) / clock;
  result.launch_s = launches * kLaunchSeconds;
  const struct {
    const char* name;
    double seconds;
  } limits[] = {{"instruction issue", result.issue_s},
                {"shared memory", result.shared_s},
                {"L1", result.l1_s},
                {"tensor cores", result.tensor_s},
                {"DRAM", result.dram_s},
                {"latency", result.latency_s}};
  double slowest = -1;
  for (const auto& limit : limits)
    if (limit.seconds > slowest) {
      slowest = limit.seconds;
      result.limited_by = limit.name;
    }
  result.seconds = slowest + result.launch_s;
  return result;
}

}  // namespace rooflab::gpu_model
