// Kernel-enforced process counts for the grader's sandboxed steps. Each step
// (a build, a test's worker, a profile) runs in a pids cgroup of its own,
// whose pids.max caps the tasks (processes and threads) in it: a fork bomb
// fills its own step and nothing else.
//
// RLIMIT_NPROC, the fallback, counts every process of the user instead. Every
// grading on a machine runs its steps as the same user (nobody, when the
// grader is root), so one grading's builds, or a fork bomb, could make
// another grading's fork fail ("vfork: Resource temporarily unavailable") and
// cost a student their score.
//
// cgroup v2 holds every controller in one cgroup per step: where the memory
// cgroups are v2, the pids controller is enabled beside memory and each
// step's memory cgroup gets a pids.max too. Otherwise the grader's own v2
// cgroup, where the pids controller can be enabled below it, or cgroup v1's
// pids hierarchy, where the grader may create groups (root). Elsewhere there
// is none, and steps get RLIMIT_NPROC (docs/autograder_security.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "os/memory_cgroup.hpp"

namespace rooflab {

// One step's pids cgroup: created with its limit, joined by the step's first
// process before it executes anything, removed (its processes killed) when
// the object goes away.
class PidsCgroup {
 public:
  // `owned`: a cgroup of its own, created here and joined through procs_fd().
  // Otherwise `dir` is the step's v2 memory cgroup, which the step joins
  // anyway: only its pids.max is set, and the memory cgroup removes it.
  PidsCgroup(std::filesystem::path dir, std::uint64_t limit, bool owned);
  ~PidsCgroup();
  PidsCgroup(const PidsCgroup&) = delete;
  PidsCgroup& operator=(const PidsCgroup&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::uint64_t limit() const { return limit_; }
  // Open for writing, close-on-exec: the child writes "0" into it to join;
  // -1 where joining the step's memory cgroup joins this one.
  int procs_fd() const { return procs_fd_; }
  // The tasks in it now.
  std::uint64_t current() const;
  // How many forks (and thread creations) the limit refused.
  std::uint64_t refused() const;

 private:
  std::filesystem::path dir_;
  std::uint64_t limit_;
  bool owned_;
  int procs_fd_ = -1;
};

// The grading's own pids cgroup, under which each step gets one.
class PidsCgroups {
 public:
  // Finds where this process may create pids cgroups, sharing the memory
  // cgroups' folders where those are v2, and creates the grading's parent
  // cgroup `name` there. `mounts` and `self` are /proc/self/mounts and
  // /proc/self/cgroup; tests pass their own.
  static PidsCgroups probe(const std::string& name, const MemoryCgroups& memory,
                           const std::filesystem::path& mounts = "/proc/self/mounts",
                           const std::filesystem::path& self = "/proc/self/cgroup");
  PidsCgroups() = default;
  ~PidsCgroups();
  PidsCgroups(PidsCgroups&&) noexcept;
  PidsCgroups& operator=(PidsCgroups&&) noexcept;

  CgroupVersion version() const { return version_; }
  bool available() const { return version_ != CgroupVersion::none; }
  // Whether each step's memory cgroup is its pids cgroup too (cgroup v2).
  bool shares_memory_cgroups() const { return shared_; }
  // Why there is none (empty when there is one).
  const std::string& why_not() const { return why_not_; }
  // "cgroup v1 pids controller" or "cgroup v2 pids controller"; "" without.
  std::string mechanism() const;

  // A pids cgroup for one step, limited to `limit` tasks; `memory` is the
  // step's memory cgroup, which shares_memory_cgroups() requires. Throws
  // std::runtime_error when the kernel refuses.
  std::unique_ptr<PidsCgroup> create(const std::string& step, std::uint64_t limit, const MemoryCgroup* memory) const;

 private:
  CgroupVersion version_ = CgroupVersion::none;
  bool shared_ = false;
  std::string why_not_;
  std::filesystem::path dir_;  // the grading's own; empty where shared
};

}  // namespace rooflab
