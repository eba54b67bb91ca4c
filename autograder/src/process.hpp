// Runs a child process with limits: wall-clock timeout, address space, CPU time,
// output captured to a file and capped when read back.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

struct ProcessLimits {
  double timeout_s = 10;                           // wall clock; the process group is killed after
  std::optional<std::size_t> address_space_bytes;  // RLIMIT_AS
  std::size_t output_cap_bytes = 1 << 20;          // what we read back of stdout+stderr

  static ProcessLimits timeout(double seconds) {
    ProcessLimits limits;
    limits.timeout_s = seconds;
    return limits;
  }
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled && !timed_out
  int signal = 0;      // terminating signal, when signaled
  bool signaled = false;
  bool timed_out = false;
  double wall_s = 0;
  std::string output;  // stdout and stderr interleaved, capped

  bool succeeded() const { return !timed_out && !signaled && exit_code == 0; }
  // "exit code 1", "killed by signal 11 (SIGSEGV)", "timed out after 10 s" ...
  std::string describe(double timeout_s) const;
};

// Runs argv[0] (looked up in PATH) with `argv` in `cwd`. Output goes to
// `log_file` (created or truncated) and is read back into ProcessResult::output.
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log_file, const ProcessLimits& limits);

}  // namespace rooflab
