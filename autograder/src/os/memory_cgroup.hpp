// Kernel-enforced memory for the grader's sandboxed steps. Each step (a test's
// worker, a build, a profile) runs in a memory cgroup of its own, whose limit
// counts everything its processes hold in RAM: heap, page cache and tmpfs
// files alike (RLIMIT_AS counts none of the last two, so an O(N²) "flash"
// could keep its scores in /tmp). The kernel kills a step that passes its limit.
//
// cgroup v2 is used where the memory controller can be enabled below the
// grader's own cgroup; else cgroup v1's memory hierarchy where the grader may
// create groups in it (root, on most Linux machines of today that still mount
// it). Elsewhere there is no cgroup, and the grader falls back to RLIMIT_AS
// plus a small tmpfs counted in the budget (docs/autograder_security.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace rooflab {

enum class CgroupVersion { none, v1, v2 };

// One step's cgroup: created with its limit, joined by the step's first
// process before it executes anything, removed (its processes killed) when
// the object goes away.
class MemoryCgroup {
 public:
  MemoryCgroup(std::filesystem::path dir, CgroupVersion version, std::uint64_t limit_bytes);
  ~MemoryCgroup();
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  CgroupVersion version() const { return version_; }
  std::uint64_t limit_bytes() const { return limit_; }
  // Open for writing, close-on-exec: the child writes "0" into it to join.
  int procs_fd() const { return procs_fd_; }
  // The most memory its processes held at once (nullopt where the kernel
  // keeps no peak, cgroup v2 before Linux 5.19).
  std::optional<std::uint64_t> peak_bytes() const;
  // Whether the kernel killed one of its processes for passing the limit.
  bool oom_killed() const;
  // "v1:/sys/fs/cgroup/memory/…": what a verdict process needs to read this
  // cgroup's memory (ROOFLAB_WORKER_MEMORY, rooflab/kernel_memory.hpp).
  std::string locator() const;

 private:
  std::filesystem::path dir_;
  CgroupVersion version_;
  std::uint64_t limit_;
  int procs_fd_ = -1;
};

// The grading's own cgroup, under which each step gets one.
class MemoryCgroups {
 public:
  // Finds a memory hierarchy this process may create cgroups in and creates
  // the grading's parent cgroup `name` there. `mounts` and `self` are
  // /proc/self/mounts and /proc/self/cgroup; tests pass their own.
  static MemoryCgroups probe(const std::string& name, const std::filesystem::path& mounts = "/proc/self/mounts",
                             const std::filesystem::path& self = "/proc/self/cgroup");
  MemoryCgroups() = default;
  ~MemoryCgroups();
  MemoryCgroups(MemoryCgroups&&) noexcept;
  MemoryCgroups& operator=(MemoryCgroups&&) noexcept;

  CgroupVersion version() const { return version_; }
  bool available() const { return version_ != CgroupVersion::none; }
  // Why there is no cgroup (empty when there is one).
  const std::string& why_not() const { return why_not_; }
  // "cgroup v1 memory controller" or "cgroup v2 memory controller"; "" without.
  std::string mechanism() const;
  const std::filesystem::path& dir() const { return dir_; }

  // A new cgroup for one step; throws std::runtime_error when the kernel refuses.
  std::unique_ptr<MemoryCgroup> create(const std::string& step, std::uint64_t limit_bytes) const;
  // The most memory all the grading's steps held at once.
  std::optional<std::uint64_t> peak_bytes() const;

 private:
  CgroupVersion version_ = CgroupVersion::none;
  std::string why_not_;
  std::filesystem::path dir_;
};

}  // namespace rooflab
