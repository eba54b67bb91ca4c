#include "process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "text.hpp"

namespace rooflab {

std::string ProcessResult::describe(double timeout_s) const {
  if (timed_out) {
    std::string seconds = std::to_string(timeout_s);
    seconds.erase(seconds.find_last_not_of('0') + 1);
    if (!seconds.empty() && seconds.back() == '.') seconds.pop_back();
    return "timed out after " + seconds + " s (infinite loop?)";
  }
  if (signaled) {
    const char* name = sigabbrev_np(signal);
    return "killed by signal " + std::to_string(signal) + " (SIG" + (name ? name : "?") + ")" +
           (signal == SIGSEGV ? ": segmentation fault" : "");
  }
  return "exit code " + std::to_string(exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log_file, const ProcessLimits& limits) {
  if (argv.empty()) throw std::invalid_argument("run_process: empty argv");
  if (log_file.has_parent_path()) std::filesystem::create_directories(log_file.parent_path());
  const int log_fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error("cannot write " + log_file.string() + ": " + std::strerror(errno));

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: own process group (so a timeout kills grandchildren too), limits, exec.
    ::setpgid(0, 0);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    if (limits.address_space_bytes) {
      const rlimit as{*limits.address_space_bytes, *limits.address_space_bytes};
      ::setrlimit(RLIMIT_AS, &as);
    }
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    const auto cpu_s = static_cast<rlim_t>(limits.timeout_s) + 2;
    const rlimit cpu{cpu_s, cpu_s + 1};
    ::setrlimit(RLIMIT_CPU, &cpu);
    if (::chdir(cwd.c_str()) != 0) _exit(126);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  ::close(log_fd);
  ::setpgid(pid, pid);  // also from the parent, so the group exists before we might kill it

  ProcessResult result;
  int status = 0;
  const auto deadline = start + std::chrono::duration<double>(limits.timeout_s);
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  ::kill(-pid, SIGKILL);  // reap anything the child left running in its group
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.timed_out) {
    if (WIFSIGNALED(status)) {
      result.signaled = true;
      result.signal = WTERMSIG(status);
      // RLIMIT_CPU exceeded is a time-out, not a crash.
      if (result.signal == SIGXCPU) result.timed_out = true;
    } else {
      result.exit_code = WEXITSTATUS(status);
    }
  }
  result.output = text::truncate(text::read_file(log_file), limits.output_cap_bytes);
  return result;
}

}  // namespace rooflab
