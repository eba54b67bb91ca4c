#include "os/cpu_cgroup.hpp"

namespace rooflab {
namespace fs = std::filesystem;

CpuCgroups CpuCgroups::probe(const std::string& name, const MemoryCgroups& memory, const PidsCgroups& pids,
                             const fs::path& mounts, const fs::path& self) {
  const bool on_memory = memory.version() == CgroupVersion::v2;
  const fs::path host = on_memory ? memory.dir() : pids.v2_dir();
  // cpu.shares is v1's weight; its default, 1024, is every step's.
  return CpuCgroups(ControllerCgroups::probe("cpu", "cpu.shares", name, host, mounts, self), on_memory);
}

std::unique_ptr<ControllerCgroup> CpuCgroups::create(const std::string& step, const MemoryCgroup* memory,
                                                     const PidsCgroup* pids) const {
  fs::path host_step;
  if (on_memory_ && memory) host_step = memory->dir();
  if (!on_memory_ && pids) host_step = pids->dir();
  return std::make_unique<ControllerCgroup>(step_dir(step, host_step), !shares_host());
}

}  // namespace rooflab
