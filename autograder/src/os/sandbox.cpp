#include "os/sandbox.hpp"

#include <signal.h>
#include <unistd.h>

#include <stdexcept>

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr uid_t kNobody = 65534;

std::vector<std::string> system_view() {
  std::vector<std::string> args{"--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"};
  // /bin, /lib... are symlinks into /usr on merged-/usr systems, folders elsewhere.
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (fs::is_symlink(top)) {
      args.insert(args.end(), {"--symlink", fs::read_symlink(top).string(), top});
    } else if (fs::is_directory(top)) {
      args.insert(args.end(), {"--ro-bind", top, top});
    }
  }
  return args;
}

}  // namespace

Sandbox::Sandbox(SandboxMode mode) {
  if (::geteuid() == 0) run_as_ = kNobody;
  if (mode == SandboxMode::off) {
    weakness_ = "the sandbox was turned off (--no-sandbox)";
    return;
  }
  // Probe with the real arguments, as the real user: a kernel without
  // unprivileged user namespaces fails here, not halfway through grading.
  isolated_ = true;
  sized_tmp_ = true;
  const fs::path log = fs::temp_directory_path() / ("rooflab-sandbox-probe-" + std::to_string(::getpid()) + ".log");
  ProcessResult probe = run({"true"}, {}, "/", log, ProcessLimits::timeout(30));
  if (!probe.succeeded()) {  // an older bubblewrap without --size: /tmp read-only instead
    sized_tmp_ = false;
    probe = run({"true"}, {}, "/", log, ProcessLimits::timeout(30));
  }
  fs::remove(log);
  if (!probe.succeeded()) {
    isolated_ = false;
    weakness_ =
        "bubblewrap cannot run here (" + probe.describe(30) + (probe.output.empty() ? "" : ": ") + probe.output + ")";
    if (weakness_.back() == '\n') weakness_.pop_back();
    if (mode == SandboxMode::required) throw std::runtime_error("--require-sandbox: " + weakness_);
  }
}

std::vector<std::string> Sandbox::wrap(const std::vector<std::string>& argv, const SandboxView& view) const {
  if (!isolated_) return argv;
  std::vector<std::string> args{"bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"};
  for (const auto& [key, value] : {std::pair{"PATH", "/usr/local/bin:/usr/bin:/bin"}, std::pair{"HOME", "/tmp"},
                                   std::pair{"TMPDIR", "/tmp"}, std::pair{"LANG", "C.UTF-8"}})
    args.insert(args.end(), {"--setenv", key, value});
  for (const auto& entry : view.env) {
    const std::size_t equals = entry.find('=');
    args.insert(args.end(), {"--setenv", entry.substr(0, equals), entry.substr(equals + 1)});
  }
  const auto system = system_view();
  args.insert(args.end(), system.begin(), system.end());
  args.insert(args.end(), {"--proc", "/proc", "--dev", "/dev"});
  // Every writable mount is capped: /tmp is a tmpfs of the step's size, whose
  // files the step's memory cgroup counts; without --size it is read-only.
  if (sized_tmp_) {
    args.insert(args.end(), {"--size", std::to_string(view.tmp_bytes), "--tmpfs", "/tmp"});
  } else {
    args.insert(args.end(), {"--tmpfs", "/tmp"});
  }
  for (const auto& path : view.read_only) args.insert(args.end(), {"--ro-bind", path.string(), path.string()});
  for (const auto& path : view.writable) args.insert(args.end(), {"--bind", path.string(), path.string()});
  if (view.gpu) {
    for (const char* device :
         {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2",
          "/dev/nvidia3", "/dev/nvidia4", "/dev/nvidia5", "/dev/nvidia6", "/dev/nvidia7"})
      args.insert(args.end(), {"--dev-bind-try", device, device});
  }
  // Last, once every mount point exists: bubblewrap's own root and /dev are
  // tmpfs mounts as large as half the machine's memory, writable unless made
  // read-only, and so is /tmp where it cannot be sized. What stays writable is
  // the sized /tmp and the step's own binds.
  if (!sized_tmp_) args.insert(args.end(), {"--remount-ro", "/tmp"});
  args.insert(args.end(), {"--remount-ro", "/dev", "--remount-ro", "/"});
  args.insert(args.end(), {"--chdir", view.cwd.string(), "--"});
  args.insert(args.end(), argv.begin(), argv.end());
  return args;
}

Child Sandbox::spawn(const std::vector<std::string>& argv, const SandboxView& view, const fs::path& cwd,
                     const fs::path& log_file, const ProcessLimits& limits, std::optional<int> pass_fd) const {
  SpawnOptions options;
  options.pass_fd = pass_fd;
  options.env = view.env;  // reaches the process itself only where there is no bubblewrap
  options.run_as = run_as_;
  options.cgroup_procs_fds = view.cgroup_procs_fds;
  return spawn_process(wrap(argv, view), cwd, log_file, limits, options);
}

ProcessResult Sandbox::run(const std::vector<std::string>& argv, const SandboxView& view, const fs::path& cwd,
                           const fs::path& log_file, const ProcessLimits& limits) const {
  Child child = spawn(argv, view, cwd, log_file, limits);
  ProcessResult result = wait_process(child);
  read_exit(result);
  return result;
}

void Sandbox::read_exit(ProcessResult& result) const {
  if (isolated_ && !result.signaled && !result.timed_out && result.exit_code > 128) {
    result.signaled = true;
    result.signal = result.exit_code - 128;
    // RLIMIT_CPU exceeded is a time-out, not a crash (process.cpp, wait_process).
    if (result.signal == SIGXCPU) result.timed_out = result.over_cpu = true;
  }
}

void Sandbox::hand_over(const fs::path& dir) const {
  fs::create_directories(dir);
  if (!run_as_) return;
  if (::chown(dir.c_str(), *run_as_, *run_as_) != 0)
    throw std::runtime_error("cannot hand " + dir.string() + " to the sandbox user");
}

std::uint64_t Sandbox::process_limit() const {
  return count_processes_of(run_as_ ? *run_as_ : ::getuid()) + kProcessHeadroom;
}

}  // namespace rooflab
