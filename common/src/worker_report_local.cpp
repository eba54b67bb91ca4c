// take_worker_report() for a process that holds the code under test: a test
// binary that links it, or the grader's worker answering the verdict.
#include "rooflab/call_counts.hpp"
#include "rooflab/cuda_cpu.hpp"
#include "rooflab/worker_report.hpp"

namespace rooflab::cuda_cpu {
// Weak: a process without the CPU runtime (no CUDA code, or kernels on a GPU)
// has no launches to report.
[[gnu::weak]] std::vector<LaunchRecord> take_launch_records();
[[gnu::weak]] std::vector<DeviceToHostWords> take_device_to_host_words();
[[gnu::weak]] std::string source_line(const void* pc);
[[gnu::weak]] void set_launch_shapes_only(bool on);
}  // namespace rooflab::cuda_cpu

namespace rooflab::testing {

WorkerReport take_worker_report() {
  WorkerReport report;
  report.calls = take_call_counts();
  if (&cuda_cpu::take_launch_records == nullptr) return report;
  report.kernels_recorded = true;
  for (const cuda_cpu::LaunchRecord& record : cuda_cpu::take_launch_records()) {
    KernelLaunch launch;
    launch.kernel = record.kernel;
    launch.grid = {record.grid.x, record.grid.y, record.grid.z};
    launch.block = {record.block.x, record.block.y, record.block.z};
    launch.dynamic_shared_bytes = record.dynamic_shared_bytes;
    launch.static_shared_bytes = record.static_shared_bytes;
    const cuda_cpu::MemoryCounters& m = record.memory;
    launch.global_load_requests = m.global_load_requests;
    launch.global_load_sectors = m.global_load_sectors;
    launch.global_store_requests = m.global_store_requests;
    launch.global_store_sectors = m.global_store_sectors;
    launch.global_atomic_requests = m.global_atomic_requests;
    launch.shared_load_requests = m.shared_load_requests;
    launch.shared_store_requests = m.shared_store_requests;
    launch.shared_wavefronts = m.shared_wavefronts;
    launch.shared_bank_conflicts = m.shared_bank_conflicts;
    launch.dram_read_bytes = m.dram_read_bytes;
    launch.dram_write_bytes = m.dram_write_bytes;
    launch.heaviest_warp_requests = m.heaviest_warp_requests;
    launch.async_copy_requests = m.async_copy_requests;
    launch.async_copy_waits = m.async_copy_waits;
    launch.bytes_read_from = record.bytes_read_from;
    launch.host_words_read = record.host_words_read;
    launch.tensor_core_operations = record.tensor_core_operations;
    launch.tensor_core_flops = record.tensor_core_flops;
    for (const cuda_cpu::InstructionCounters& counted : record.instructions)
      launch.instructions.push_back({reinterpret_cast<std::uintptr_t>(counted.pc), counted.shared, counted.store,
                                     counted.requests, counted.sectors, counted.wavefronts, counted.bank_conflicts});
    report.launches.push_back(std::move(launch));
  }
  for (cuda_cpu::DeviceToHostWords& copied : cuda_cpu::take_device_to_host_words())
    report.copied_back.push_back({std::move(copied.writer), std::move(copied.words)});
  return report;
}

std::string source_line(std::uint64_t pc) {
  return &cuda_cpu::source_line == nullptr ? std::string() : cuda_cpu::source_line(reinterpret_cast<const void*>(pc));
}

LaunchShapesOnly::LaunchShapesOnly() {
  if (&cuda_cpu::set_launch_shapes_only != nullptr) cuda_cpu::set_launch_shapes_only(true);
}
LaunchShapesOnly::~LaunchShapesOnly() {
  if (&cuda_cpu::set_launch_shapes_only != nullptr) cuda_cpu::set_launch_shapes_only(false);
}

}  // namespace rooflab::testing
