#include "os/process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "os/stop_signals.hpp"
#include "text/text.hpp"

extern char** environ;

namespace rooflab {
namespace {

void set_limit(int resource, std::uint64_t value) {
  const rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  ::setrlimit(resource, &limit);
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(char* const* argv, char* const* envp, const char* cwd, int log_fd,
                             const ProcessLimits& limits, const SpawnOptions& options) {
  // Into the step's cgroups first (while still root): everything it starts is counted.
  for (const int fd : options.cgroup_procs_fds)
    if (::write(fd, "0", 1) != 1) ::_exit(124);
  ::setpgid(0, 0);  // own group, so a timeout kills grandchildren too
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  if (options.pass_fd) {
    if (*options.pass_fd == 3) {
      ::fcntl(3, F_SETFD, 0);  // dup2 onto itself would keep close-on-exec
    } else {
      ::dup2(*options.pass_fd, 3);
    }
  }
  if (limits.address_space_bytes) set_limit(RLIMIT_AS, *limits.address_space_bytes);
  if (limits.file_size_bytes) set_limit(RLIMIT_FSIZE, *limits.file_size_bytes);
  if (limits.max_processes) set_limit(RLIMIT_NPROC, *limits.max_processes);
  if (limits.open_files) set_limit(RLIMIT_NOFILE, *limits.open_files);
  set_limit(RLIMIT_CORE, 0);
  const auto cpu_s =
      limits.cpu_s ? static_cast<rlim_t>(*limits.cpu_s + 0.999) : static_cast<rlim_t>(limits.timeout_s) + 2;
  const rlimit cpu{cpu_s, cpu_s + 1};
  ::setrlimit(RLIMIT_CPU, &cpu);
  if (options.run_as) {
    const gid_t gid = *options.run_as;
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(*options.run_as) != 0) ::_exit(125);
  }
  if (::chdir(cwd) != 0) ::_exit(126);
  ::execvpe(argv[0], argv, envp);
  ::_exit(127);
}

}  // namespace

namespace {
// "5", "2.5", "0.25": seconds as a person writes them.
std::string seconds_text(double seconds) {
  std::string text = std::to_string(seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}
}  // namespace

std::string ProcessResult::describe(double timeout_s) const {
  if (timed_out && over_cpu && cpu_limit_s) {
    char used[32];
    std::snprintf(used, sizeof used, "%.1f", cpu_s);
    return "used " + std::string(used) + " s of CPU time, more than its limit of " + seconds_text(*cpu_limit_s) +
           " s (infinite loop?)";
  }
  if (timed_out && cpu_limit_s)
    return "did not finish within the wall-clock backstop of " + seconds_text(timeout_s) + " s, having used " +
           seconds_text(static_cast<double>(static_cast<long long>(cpu_s * 10)) / 10) + " of its " +
           seconds_text(*cpu_limit_s) + " s of CPU time: it waited, slept or deadlocked rather than computed";
  if (timed_out) return "timed out after " + seconds_text(timeout_s) + " s (infinite loop?)";
  if (signaled) {
    const char* name = sigabbrev_np(signal);
    std::string why = "killed by signal " + std::to_string(signal) + " (SIG" + (name ? name : "?") + ")";
    if (signal == SIGSEGV) why += ": segmentation fault";
    if (signal == SIGXFSZ) why += ": a file it wrote (its output included) passed the file-size limit";
    return why;
  }
  return "exit code " + std::to_string(exit_code);
}

Child spawn_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                    const std::filesystem::path& log_file, const ProcessLimits& limits, const SpawnOptions& options) {
  if (argv.empty()) throw std::invalid_argument("spawn_process: empty argv");
  if (log_file.has_parent_path()) std::filesystem::create_directories(log_file.parent_path());
  const int log_fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error("cannot write " + log_file.string() + ": " + std::strerror(errno));

  // Everything the child needs is built before fork: the child may not allocate.
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  // options.env replaces inherited entries of the same name: getenv() returns
  // the first match, so an exported ROOFLAB_SEED would otherwise win.
  const auto overridden = [&](std::string_view inherited) {
    for (const std::string_view entry : options.env) {
      const std::size_t equals = entry.find('=');
      if (equals != std::string_view::npos && inherited.substr(0, equals + 1) == entry.substr(0, equals + 1))
        return true;
    }
    return false;
  };
  std::vector<char*> envp;
  for (char** entry = environ; *entry; ++entry)
    if (!overridden(*entry)) envp.push_back(*entry);
  for (const auto& entry : options.env) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);
  const std::string cwd_text = cwd.string();

  Child child;
  child.start = std::chrono::steady_clock::now();
  child.log_file = log_file;
  child.limits = limits;
  child.pid = ::fork();
  if (child.pid < 0) {
    ::close(log_fd);
    throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (child.pid == 0) exec_child(args.data(), envp.data(), cwd_text.c_str(), log_fd, limits, options);
  ::close(log_fd);
  ::setpgid(child.pid, child.pid);  // also from the parent, so the group exists before we might kill it
  return child;
}

ProcessResult wait_process(Child& child) {
  ProcessResult result;
  result.cpu_limit_s = child.limits.cpu_s;
  int status = 0;
  rusage usage{};
  const auto deadline = child.start + std::chrono::duration<double>(child.limits.timeout_s);
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    const pid_t done = ::wait4(child.pid, &status, WNOHANG, &usage);
    if (done == child.pid) break;
    if (const int signal = stop_signal()) {  // the grading was stopped: so is this child, then the grading
      end_process(child);
      throw Stopped(signal);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(-child.pid, SIGKILL);
      ::wait4(child.pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  ::kill(-child.pid, SIGKILL);  // reap anything the child left running in its group
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - child.start).count();
  const auto seconds = [](const timeval& time) { return static_cast<double>(time.tv_sec) + time.tv_usec * 1e-6; };
  result.cpu_s = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  if (!result.timed_out) {
    if (WIFSIGNALED(status)) {
      result.signaled = true;
      result.signal = WTERMSIG(status);
      // RLIMIT_CPU exceeded is a time-out, not a crash.
      if (result.signal == SIGXCPU) result.timed_out = result.over_cpu = true;
    } else {
      result.exit_code = WEXITSTATUS(status);
    }
  }
  result.output = text::truncate(text::read_file(child.log_file), child.limits.output_cap_bytes);
  return result;
}

void end_process(Child& child) {
  if (child.pid <= 0) return;
  ::kill(-child.pid, SIGTERM);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(kEndGrace_s);
  int status = 0;
  pid_t done = 0;
  while ((done = ::waitpid(child.pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(-child.pid, SIGKILL);  // what ignored SIGTERM, and anything it left in its group
  if (done == 0) ::waitpid(child.pid, &status, 0);
  child.pid = -1;
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log_file, const ProcessLimits& limits,
                          const SpawnOptions& options) {
  Child child = spawn_process(argv, cwd, log_file, limits, options);
  return wait_process(child);
}

namespace {

// /proc/<pid> of every process that exists now.
std::vector<std::filesystem::path> process_dirs() {
  std::vector<std::filesystem::path> dirs;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) dirs.push_back(entry.path());
  }
  return dirs;
}

}  // namespace

std::vector<ProcessInfo> list_processes() {
  std::vector<ProcessInfo> processes;
  for (const auto& dir : process_dirs()) {
    ProcessInfo info;
    struct stat owner {};
    std::string stat;
    try {
      if (::stat(dir.c_str(), &owner) != 0) continue;
      info.cmdline = text::read_file(dir / "cmdline");
      stat = text::read_file(dir / "stat");
    } catch (const std::exception&) {
      continue;  // it ended while we looked
    }
    info.pid = static_cast<pid_t>(std::stol(dir.filename().string()));
    info.uid = owner.st_uid;
    const std::size_t after_name = stat.rfind(") ");
    info.zombie = after_name != std::string::npos && stat.compare(after_name + 2, 1, "Z") == 0;
    processes.push_back(std::move(info));
  }
  return processes;
}

void kill_processes_mentioning(const std::string& needle, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (true) {
    int alive = 0;
    for (const ProcessInfo& process : list_processes()) {
      if (process.zombie || process.cmdline.find(needle) == std::string::npos) continue;
      ::kill(process.pid, SIGKILL);
      ++alive;
    }
    if (alive == 0 || std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::uint64_t count_processes_of(uid_t uid) {
  // Only the owner is needed: a stat per process, no reads (this runs once per test).
  std::uint64_t count = 0;
  for (const auto& dir : process_dirs()) {
    struct stat info {};
    if (::stat(dir.c_str(), &info) == 0 && info.st_uid == uid) ++count;
  }
  return count;
}

}  // namespace rooflab
