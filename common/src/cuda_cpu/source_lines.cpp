// An address in kernel code as "src/kernel.cu:57": addr2line (binutils) reads
// the debug line table the CPU build of every CUDA_FILES source carries
// (cmake/cuda_on_cpu.cmake adds -g1). Asked only when a message needs a line,
// once per address.
#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "memory_checker.hpp"

extern char** environ;

namespace rooflab::cuda_cpu::detail {
namespace {

// addr2line's answer for `offset` in `object`, or "".
std::string ask_addr2line(const std::string& object, std::uintptr_t offset) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", 0, 0);
  char address[32];
  std::snprintf(address, sizeof address, "0x%zx", static_cast<std::size_t>(offset));
  std::string object_copy = object;
  char program[] = "addr2line", flag[] = "-e";
  char* argv[] = {program, flag, object_copy.data(), address, nullptr};
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, "addr2line", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  std::string answer;
  char buffer[512];
  for (ssize_t got; spawned == 0 && (got = read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
    answer.append(buffer, static_cast<std::size_t>(got));
  close(pipe_ends[0]);
  if (spawned == 0) waitpid(child, nullptr, 0);
  answer = answer.substr(0, answer.find('\n'));
  const std::size_t discriminator = answer.find(" (discriminator");
  if (discriminator != std::string::npos) answer.resize(discriminator);
  if (answer.empty() || answer.rfind("??", 0) == 0 || answer.find(":?") != std::string::npos ||
      answer.find(":0") == answer.size() - 2)
    return "";
  // The last two parts of the path: "src/flash_attention.cu:57".
  const std::size_t last = answer.rfind('/');
  if (last != std::string::npos && last > 0) {
    const std::size_t before = answer.rfind('/', last - 1);
    if (before != std::string::npos) answer = answer.substr(before + 1);
  }
  return answer;
}

}  // namespace

std::string source_line(const void* pc) {
  static std::mutex lock;
  static std::map<const void*, std::string> known;
  const std::lock_guard guard(lock);
  if (const auto found = known.find(pc); found != known.end()) return found->second;
  std::string line;
  Dl_info info{};
  if (pc && dladdr(pc, &info) && info.dli_fname) {
    // The call's own instruction: the return address less one byte.
    const auto address = reinterpret_cast<std::uintptr_t>(pc) - 1;
    std::string object = info.dli_fname;
    if (object.empty() || object.find('/') == std::string::npos) object = "/proc/self/exe";
    line = ask_addr2line(object, address - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
    if (line.empty()) line = ask_addr2line(object, address);  // a non-PIE executable
  }
  if (line.empty()) {
    char text[48];
    std::snprintf(text, sizeof text, "address %p (no line information)", pc);
    line = text;
  }
  return known[pc] = line;
}

}  // namespace rooflab::cuda_cpu::detail
