#include "os/step_cgroups.hpp"

namespace rooflab {

StepCgroups StepCgroups::create(const MemoryCgroups& memory, const PidsCgroups& pids, const CpuCgroups& cpu,
                                const std::string& name, std::uint64_t bytes, std::uint64_t tasks) {
  StepCgroups step;
  if (memory.available()) step.memory = memory.create(name, bytes);
  // Under cgroup v2 a step has one cgroup, the first one created here: the
  // others are enabled in it.
  if (pids.available()) step.pids = pids.create(name, tasks, step.memory.get());
  if (cpu.available()) step.cpu = cpu.create(name, step.memory.get(), step.pids.get());
  return step;
}

std::vector<int> StepCgroups::procs_fds() const {
  std::vector<int> fds;
  if (memory) fds.push_back(memory->procs_fd());
  const ControllerCgroup* pids_cgroup = pids.get();  // its own cgroup under v1; under v2, memory's
  for (const ControllerCgroup* cgroup : {pids_cgroup, static_cast<const ControllerCgroup*>(cpu.get())})
    if (cgroup && cgroup->procs_fd() >= 0) fds.push_back(cgroup->procs_fd());
  return fds;
}

}  // namespace rooflab
