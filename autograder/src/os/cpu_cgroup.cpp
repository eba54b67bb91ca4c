#include "os/cpu_cgroup.hpp"

#include <algorithm>
#include <cstdint>

namespace rooflab {
namespace fs = std::filesystem;

CpuCgroups CpuCgroups::probe(const std::string& name, const MemoryCgroups& memory, const PidsCgroups& pids,
                             int parallel, const fs::path& mounts, const fs::path& self) {
  const bool on_memory = memory.version() == CgroupVersion::v2;
  const fs::path host = on_memory ? memory.dir() : pids.v2_dir();
  // cpu.shares is v1's weight; its default, 1024, is every step's.
  CpuCgroups cgroups(ControllerCgroups::probe("cpu", "cpu.shares", name, host, mounts, self), on_memory);
  if (!cgroups.available()) return cgroups;
  // The default weight, v1's cpu.shares 1024 and v2's cpu.weight 100, is one
  // process's outside any cgroup; v2's weights stop at 10000.
  const bool v1 = cgroups.version() == CgroupVersion::v1;
  cgroups.weighs_as_ = std::clamp(parallel, 1, 100);
  const auto weight = static_cast<std::uint64_t>(cgroups.weighs_as_) * (v1 ? 1024 : 100);
  if (const std::string error = cgroups.set_on_grading(v1 ? "cpu.shares" : "cpu.weight", std::to_string(weight));
      !error.empty())
    cgroups.give_up(error);
  return cgroups;
}

CpuCgroups CpuCgroups::none(const std::string& why) {
  CpuCgroups cgroups;
  cgroups.give_up(why);
  return cgroups;
}

std::unique_ptr<ControllerCgroup> CpuCgroups::create(const std::string& step, const MemoryCgroup* memory,
                                                     const PidsCgroup* pids) const {
  fs::path host_step;
  if (on_memory_ && memory) host_step = memory->dir();
  if (!on_memory_ && pids) host_step = pids->dir();
  return std::make_unique<ControllerCgroup>(step_dir(step, host_step), !shares_host());
}

}  // namespace rooflab
