// Runs child processes with limits: wall-clock timeout (the whole process group
// is killed), rlimits (CPU time, address space, processes, file size, open
// files, no core dumps), output captured to a file and capped when read back.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

struct ProcessLimits {
  double timeout_s = 10;                           // wall clock; the process group is killed after
  std::optional<std::size_t> address_space_bytes;  // RLIMIT_AS
  std::size_t output_cap_bytes = 1 << 20;          // what we read back of stdout+stderr
  std::optional<std::uint64_t> file_size_bytes;    // RLIMIT_FSIZE: no file, the log included, grows past it
  std::optional<std::uint64_t> max_processes;      // RLIMIT_NPROC: counts every process of the user, any grading's
  std::optional<std::uint64_t> open_files;         // RLIMIT_NOFILE
  // A limit on the CPU time the process and its threads use (RLIMIT_CPU,
  // which the kernel enforces); timeout_s is then a wall-clock backstop.
  // Without it RLIMIT_CPU is the timeout plus 2 s. RLIMIT_CORE is always 0.
  std::optional<double> cpu_s;

  static ProcessLimits timeout(double seconds) {
    ProcessLimits limits;
    limits.timeout_s = seconds;
    return limits;
  }
};

struct SpawnOptions {
  std::optional<int> pass_fd;    // this descriptor becomes fd 3 in the child
  std::vector<std::string> env;  // "KEY=VALUE" entries added to, or replacing, the inherited ones
  std::optional<uid_t> run_as;   // setuid/setgid to this id before exec (the grader runs as root)
  // The child joins these cgroups (writes "0" to each one's cgroup.procs) before anything else.
  std::vector<int> cgroup_procs_fds;
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled && !timed_out
  int signal = 0;      // terminating signal, when signaled
  bool signaled = false;
  bool timed_out = false;
  // Ran out of its CPU time (RLIMIT_CPU, or a caller's count over several
  // processes) rather than its wall-clock time; `cpu_limit_s` was the limit.
  bool over_cpu = false;
  std::optional<double> cpu_limit_s;
  double wall_s = 0;
  double cpu_s = 0;    // user and system time of the process and every descendant it waited for
  std::string output;  // stdout and stderr interleaved, capped

  bool succeeded() const { return !timed_out && !signaled && exit_code == 0; }
  // "exit code 1", "killed by signal 11 (SIGSEGV)", "timed out after 10 s",
  // "used more than 5 s of CPU time" ...
  std::string describe(double timeout_s) const;
};

struct Child {
  pid_t pid = -1;
  std::chrono::steady_clock::time_point start;
  std::filesystem::path log_file;
  ProcessLimits limits;
};

// Starts argv[0] (looked up in PATH) in its own process group in `cwd`, with
// stdout and stderr going to `log_file` and stdin from /dev/null.
Child spawn_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                    const std::filesystem::path& log_file, const ProcessLimits& limits,
                    const SpawnOptions& options = {});

// Waits until the child ends or its timeout passes (then kills its group), and
// reads its output back. Anything left in the group is killed either way.
// Once a stop signal arrived (stop_signals.hpp) it ends the child and throws
// Stopped.
ProcessResult wait_process(Child& child);

// Ends a child early, as a stopped grading does: SIGTERM to its group (a
// grader it runs then cleans up after itself), SIGKILL after kEndGrace_s, and
// reaps it. Nothing is read back.
inline constexpr double kEndGrace_s = 10;
void end_process(Child& child);

// spawn_process + wait_process.
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log_file, const ProcessLimits& limits,
                          const SpawnOptions& options = {});

struct ProcessInfo {
  pid_t pid = 0;
  uid_t uid = 0;
  std::string cmdline;  // arguments separated by NUL, empty for zombies
  bool zombie = false;  // ended, waiting to be reaped: no longer running
};

// Every process in /proc now (those that end while it looks are skipped).
std::vector<ProcessInfo> list_processes();

// Kills every live process whose command line mentions `needle` (a grading's
// private folder) and waits, up to `timeout_s`, until none is left: a killed
// PID namespace takes the kernel a moment to tear down.
void kill_processes_mentioning(const std::string& needle, double timeout_s);

// How many processes `uid` runs now (for an RLIMIT_NPROC that leaves the rest of
// the machine alone but stops a fork bomb, where no pids cgroup can).
std::uint64_t count_processes_of(uid_t uid);

}  // namespace rooflab
