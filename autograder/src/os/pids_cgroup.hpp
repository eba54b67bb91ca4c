// Kernel-enforced process counts for the grader's sandboxed steps. Each step
// (a build, a test's worker, a profile) runs in a pids cgroup of its own,
// whose pids.max caps the tasks (processes and threads) in it: a fork bomb
// fills its own step and nothing else.
//
// RLIMIT_NPROC, the fallback, counts every process of the user instead. Every
// grading on a machine runs its steps as the same user (nobody, when the
// grader is root), so one grading's builds, or a fork bomb, could make
// another grading's fork fail ("vfork: Resource temporarily unavailable") and
// cost a student their score. Where the cgroups are found:
// controller_cgroups.hpp; docs/autograder_security.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "os/controller_cgroups.hpp"
#include "os/memory_cgroup.hpp"

namespace rooflab {

// One step's pids cgroup, its pids.max set to `limit`.
class PidsCgroup : public ControllerCgroup {
 public:
  PidsCgroup(std::filesystem::path dir, std::uint64_t limit, bool owned);

  std::uint64_t limit() const { return limit_; }
  // The tasks in it now.
  std::uint64_t current() const;
  // How many forks (and thread creations) the limit refused.
  std::uint64_t refused() const;

 private:
  std::uint64_t limit_;
};

// The grading's own pids cgroup, under which each step gets one.
class PidsCgroups : public ControllerCgroups {
 public:
  // Shares the memory cgroups' folders where those are v2.
  static PidsCgroups probe(const std::string& name, const MemoryCgroups& memory,
                           const std::filesystem::path& mounts = "/proc/self/mounts",
                           const std::filesystem::path& self = "/proc/self/cgroup");
  PidsCgroups() = default;

  // A pids cgroup for one step, limited to `limit` tasks; `memory` is the
  // step's memory cgroup, which shares_host() requires. Throws
  // std::runtime_error when the kernel refuses.
  std::unique_ptr<PidsCgroup> create(const std::string& step, std::uint64_t limit, const MemoryCgroup* memory) const;

 private:
  explicit PidsCgroups(ControllerCgroups found) : ControllerCgroups(std::move(found)) {}
};

}  // namespace rooflab
