#include "os/step_cgroups.hpp"

namespace rooflab {

StepCgroups StepCgroups::create(const MemoryCgroups& memory, const PidsCgroups& pids, const std::string& name,
                                std::uint64_t bytes, std::uint64_t tasks) {
  StepCgroups step;
  if (memory.available()) step.memory = memory.create(name, bytes);
  // Under cgroup v2 the memory cgroup is the pids cgroup too: it comes first.
  if (pids.available()) step.pids = pids.create(name, tasks, step.memory.get());
  return step;
}

std::vector<int> StepCgroups::procs_fds() const {
  std::vector<int> fds;
  if (memory) fds.push_back(memory->procs_fd());
  if (pids && pids->procs_fd() >= 0) fds.push_back(pids->procs_fd());
  return fds;
}

}  // namespace rooflab
