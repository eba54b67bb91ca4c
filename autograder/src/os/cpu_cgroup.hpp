// CPU time shared between the grader's sandboxed steps, not between their
// processes. The kernel's scheduler is fair to processes: a fork bomb's 64
// spinning copies would get 64 shares of the cores to a beside grading's one
// test worker, whose right answer could then pass its time limit (a01's tests
// have 5 s). In a cpu cgroup of its own, each step (a build, a test's
// worker, a profile) weighs the same as any other when the cores are
// contended, however many processes and threads it runs; when they are not,
// a step uses every core it can, as before. The grading's own cgroup, which
// holds its steps, weighs as much as the tests it runs at once: against
// processes outside any grading (a compiler, another course's job) its tests
// get the share they had before, one process each. Where the cgroups are found:
// controller_cgroups.hpp; docs/autograder_security.md.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "os/controller_cgroups.hpp"
#include "os/memory_cgroup.hpp"
#include "os/pids_cgroup.hpp"

namespace rooflab {

// The grading's own cpu cgroup, under which each step gets one at the
// controller's default weight.
class CpuCgroups : public ControllerCgroups {
 public:
  // Shares the steps' v2 cgroups where the memory or pids ones are v2.
  // `parallel`: the steps the grading runs at once (its tests), whose weight
  // the grading's cgroup gets.
  static CpuCgroups probe(const std::string& name, const MemoryCgroups& memory, const PidsCgroups& pids, int parallel,
                          const std::filesystem::path& mounts = "/proc/self/mounts",
                          const std::filesystem::path& self = "/proc/self/cgroup");
  CpuCgroups() = default;
  // None, and why (a grading told not to use them).
  static CpuCgroups none(const std::string& why);

  // The step's cpu cgroup; `memory` and `pids` are its other cgroups, of
  // which the v2 one is this one where shares_host(). Throws
  // std::runtime_error when the kernel refuses.
  std::unique_ptr<ControllerCgroup> create(const std::string& step, const MemoryCgroup* memory,
                                           const PidsCgroup* pids) const;
  // How many processes outside any cgroup the grading weighs as.
  int weighs_as() const { return weighs_as_; }

 private:
  explicit CpuCgroups(ControllerCgroups found, bool on_memory)
      : ControllerCgroups(std::move(found)), on_memory_(on_memory) {}
  bool on_memory_ = false;  // shares the memory cgroups' steps (else the pids cgroups')
  int weighs_as_ = 1;
};

}  // namespace rooflab
