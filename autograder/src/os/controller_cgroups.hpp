// The cgroups of one controller (pids, cpu) for a grading's sandboxed steps:
// where the grader can create them, and one step's cgroup. The memory
// controller, which came first, has its own classes (memory_cgroup.hpp);
// each controller here finds its place beside it.
//
// A process belongs to one cgroup per hierarchy. Under cgroup v2 there is one
// hierarchy, so a step has one cgroup holding every controller: where the
// memory cgroups are v2 (or, failing that, where an earlier controller here
// made the steps' v2 cgroups), this controller is enabled beside them and the
// step's cgroup is that one. Otherwise the grader's own v2 cgroup, where the
// controller can be enabled below it, or the cgroup v1 hierarchy holding the
// controller, where the grader may create groups (root). Elsewhere there is
// none, and why is kept for the report.
#pragma once

#include <filesystem>
#include <string>

#include "os/memory_cgroup.hpp"

namespace rooflab {

// One step's cgroup of one controller: created (when it is its own) before
// the step starts, joined by the step's first process before it executes
// anything, removed (its processes killed) when the object goes away.
class ControllerCgroup {
 public:
  // `owned`: a cgroup of its own, created here and joined through procs_fd().
  // Otherwise `dir` is the step's v2 cgroup, which the step joins anyway and
  // whose owner removes it.
  ControllerCgroup(std::filesystem::path dir, bool owned);
  virtual ~ControllerCgroup();
  ControllerCgroup(const ControllerCgroup&) = delete;
  ControllerCgroup& operator=(const ControllerCgroup&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // Open for writing, close-on-exec: the child writes "0" into it to join;
  // -1 where joining the step's v2 cgroup joins this one.
  int procs_fd() const { return procs_fd_; }

 protected:
  // Writes one of the cgroup's files, or throws. (From a derived class's
  // constructor, the throw runs this class's destructor: an owned cgroup goes.)
  void set(const std::string& file, const std::string& value);

 private:
  std::filesystem::path dir_;
  bool owned_;
  int procs_fd_ = -1;
};

// The grading's place for one controller's step cgroups.
class ControllerCgroups {
 public:
  // Finds where this process may create `controller` cgroups and creates the
  // grading's parent cgroup `name` there. `v2_host` is the grading's v2 cgroup
  // whose step cgroups this controller's steps share (the memory cgroups',
  // where those are v2), or empty. `v1_file` is a file every v1 cgroup of the
  // controller has. `mounts` and `self` are /proc/self/mounts and
  // /proc/self/cgroup; tests pass their own.
  static ControllerCgroups probe(const std::string& controller, const std::string& v1_file, const std::string& name,
                                 const std::filesystem::path& v2_host, const std::filesystem::path& mounts,
                                 const std::filesystem::path& self);
  ControllerCgroups() = default;
  ~ControllerCgroups();
  ControllerCgroups(ControllerCgroups&&) noexcept;
  ControllerCgroups& operator=(ControllerCgroups&&) noexcept;

  CgroupVersion version() const { return version_; }
  bool available() const { return version_ != CgroupVersion::none; }
  // Whether each step's cgroup is the one of `v2_host`'s steps (cgroup v2).
  bool shares_host() const { return shared_; }
  // The grading's own v2 cgroup, for a later controller to share; empty where
  // it is not one of its own.
  std::filesystem::path v2_dir() const;
  // Why there is none (empty when there is one).
  const std::string& why_not() const { return why_not_; }
  // "cgroup v1 pids controller" and the like; "" without.
  std::string mechanism() const;

 protected:
  // Where the step `step`'s cgroup is: its own under the grading's cgroup,
  // or, where shares_host(), `host_step` (the step's v2 cgroup).
  std::filesystem::path step_dir(const std::string& step, const std::filesystem::path& host_step) const;
  // Writes one of the grading's cgroup's files (its own, or the host's where
  // shared); "" or why not.
  std::string set_on_grading(const std::string& file, const std::string& value) const;
  // After a failed set_on_grading: there are none after all, and `why`.
  void give_up(const std::string& why);

 private:
  std::string controller_;
  CgroupVersion version_ = CgroupVersion::none;
  bool shared_ = false;
  std::string why_not_;
  std::filesystem::path dir_;   // the grading's own; empty where shared
  std::filesystem::path host_;  // the grading's v2 cgroup it shares; empty where its own
};

}  // namespace rooflab
