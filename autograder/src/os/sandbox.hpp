// Where student code runs: bubblewrap with no network, a new PID namespace, a
// read-only view of the system and of only the paths a step needs, a private
// /tmp, a cleared environment and, when the grader runs as root, an
// unprivileged user. Where bubblewrap cannot run, processes still get every
// rlimit and the unprivileged user, and the report says so loudly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "os/process.hpp"

namespace rooflab {

// The default size of a sandboxed step's private /tmp (a tmpfs, so its files
// are memory: counted in the step's memory cgroup, and in its budget).
inline constexpr std::uint64_t kDefaultTmpBytes = std::uint64_t{64} << 20;
// RLIMIT_NPROC's headroom over the sandbox user's processes, where no pids
// cgroup caps a step (Sandbox::process_limit).
inline constexpr std::uint64_t kProcessHeadroom = 256;

struct SandboxView {
  std::vector<std::filesystem::path> read_only;  // bound at the same path, read-only
  std::vector<std::filesystem::path> writable;   // bound at the same path, writable
  std::filesystem::path cwd = "/tmp";            // inside the sandbox
  bool gpu = false;                              // expose /dev/nvidia*
  std::vector<std::string> env;                  // "KEY=VALUE" entries set on top of the fixed ones
  std::uint64_t tmp_bytes = kDefaultTmpBytes;    // the private /tmp's size (read-only where it cannot be sized)
  std::vector<int> cgroup_procs_fds;             // StepCgroups::procs_fds(): the step's memory and pids cgroups
};

enum class SandboxMode { automatic, required, off };

class Sandbox {
 public:
  // Probes bubblewrap once. With `required`, throws when it cannot run.
  explicit Sandbox(SandboxMode mode);

  bool isolated() const { return isolated_; }
  // Why processes run without bubblewrap (empty when isolated).
  const std::string& weakness() const { return weakness_; }
  // Whether this bubblewrap can cap a tmpfs (--size, bubblewrap 0.7 and later);
  // where it cannot, a step's /tmp is read-only instead.
  bool sized_tmp() const { return sized_tmp_; }
  // The id sandboxed processes run as (nobody when the grader is root).
  std::optional<uid_t> run_as() const { return run_as_; }

  // The one way student-facing steps start: `argv` inside the sandbox showing
  // `view` (plain, with rlimits, when not isolated), as the sandbox user. `cwd`
  // is the working folder used when there is no sandbox; `pass_fd` becomes fd 3.
  Child spawn(const std::vector<std::string>& argv, const SandboxView& view, const std::filesystem::path& cwd,
              const std::filesystem::path& log_file, const ProcessLimits& limits,
              std::optional<int> pass_fd = std::nullopt) const;
  // spawn() + wait_process() + read_exit().
  ProcessResult run(const std::vector<std::string>& argv, const SandboxView& view, const std::filesystem::path& cwd,
                    const std::filesystem::path& log_file, const ProcessLimits& limits) const;
  // bubblewrap reports its child's death by signal N as exit code 128 + N:
  // read it back as that signal, so reports say "SIGSEGV", not "exit code 139".
  void read_exit(ProcessResult& result) const;
  // Makes `dir` (created if needed) writable by the sandboxed user.
  void hand_over(const std::filesystem::path& dir) const;
  // The RLIMIT_NPROC for a sandboxed process where no pids cgroup caps it:
  // what the user runs now plus headroom. Every grading on the machine runs
  // as that user, so they share the count.
  std::uint64_t process_limit() const;

 private:
  std::vector<std::string> wrap(const std::vector<std::string>& argv, const SandboxView& view) const;

  bool isolated_ = false;
  bool sized_tmp_ = false;
  std::string weakness_;
  std::optional<uid_t> run_as_;
};

}  // namespace rooflab
