// One sandboxed step's cgroups: its memory cgroup, its pids cgroup and its
// cpu cgroup, each where the machine can give one. The step's first process
// joins them all before it executes anything (SandboxView::cgroup_procs_fds).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "os/controller_cgroups.hpp"
#include "os/cpu_cgroup.hpp"
#include "os/memory_cgroup.hpp"
#include "os/pids_cgroup.hpp"

namespace rooflab {

struct StepCgroups {
  std::unique_ptr<MemoryCgroup> memory;   // null where the machine has no memory cgroup
  std::unique_ptr<PidsCgroup> pids;       // null where it has no pids cgroup (steps get RLIMIT_NPROC)
  std::unique_ptr<ControllerCgroup> cpu;  // null where it has no cpu cgroup (the scheduler is fair to processes)

  // The step `name`'s cgroups: `bytes` of memory, `tasks` processes and threads.
  static StepCgroups create(const MemoryCgroups& memory, const PidsCgroups& pids, const CpuCgroups& cpu,
                            const std::string& name, std::uint64_t bytes, std::uint64_t tasks);
  // The cgroup.procs descriptors the step's first process writes "0" into.
  std::vector<int> procs_fds() const;
};

}  // namespace rooflab
