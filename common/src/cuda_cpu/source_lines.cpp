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
  char program[] = "addr2line", inlines[] = "-i", flag[] = "-e";
  char* argv[] = {program, inlines, flag, object_copy.data(), address, nullptr};
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
  // Innermost frame first, then the functions it was inlined into: the line
  // is the first that is not the runtime's own header (an atomicAdd's line
  // is the kernel's call of it, not cuda_cpu.hpp's).
  std::string line;
  for (std::size_t start = 0; start < answer.size();) {
    std::size_t end = answer.find('\n', start);
    if (end == std::string::npos) end = answer.size();
    std::string frame = answer.substr(start, end - start);
    start = end + 1;
    const std::size_t discriminator = frame.find(" (discriminator");
    if (discriminator != std::string::npos) frame.resize(discriminator);
    if (frame.empty() || frame.rfind("??", 0) == 0 || frame.find(":?") != std::string::npos ||
        frame.find(":0") == frame.size() - 2)
      continue;
    if (line.empty() || line.find("/include/rooflab/") != std::string::npos) line = frame;
  }
  // The rewritten source keeps the .cu file's lines (#line 1): its name is
  // the .cu file's.
  if (const std::size_t generated = line.find(".cu.cpp:"); generated != std::string::npos) line.erase(generated + 3, 4);
  // The last two parts of the path: "src/flash_attention.cu:57".
  const std::size_t last = line.rfind('/');
  if (last != std::string::npos && last > 0) {
    const std::size_t before = line.rfind('/', last - 1);
    if (before != std::string::npos) line = line.substr(before + 1);
  }
  return line;
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

namespace rooflab::cuda_cpu {

std::string source_line(const void* pc) { return detail::source_line(pc); }

}  // namespace rooflab::cuda_cpu
