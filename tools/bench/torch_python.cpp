#include "torch_python.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "rooflab/build_paths.hpp"

namespace rooflab::bench {

std::string peer_script(const std::string& name) {
  return shell_quoted((build_paths::source_dir() / "tools" / "bench" / name).string());
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::optional<std::string> torch_python() {
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("ROOFLAB_PYTHON"); chosen != nullptr && *chosen != '\0')
    candidates.emplace_back(chosen);
  // The virtual environment how_to_get_torch() suggests, at the repository's root.
  const std::filesystem::path venv = build_paths::source_dir() / ".venv" / "bin" / "python3";
  if (std::filesystem::exists(venv)) candidates.push_back(venv.string());
  candidates.emplace_back("python3");
  candidates.emplace_back("/usr/bin/python3");
  for (const std::string& python : candidates) {
    const std::string probe = shell_quoted(python) + " -c 'import torch' >/dev/null 2>&1";
    if (run_peer(probe, [](const std::string&) {}) == 0) return python;
  }
  return std::nullopt;
}

int run_peer(const std::string& command, const std::function<void(const std::string& line)>& on_line) {
  const char* tmp = std::getenv("TMPDIR");
  std::string folder =
      (tmp != nullptr && *tmp != '\0' ? std::string(tmp) : std::string("/tmp")) + "/rooflab-peer-XXXXXX";
  if (mkdtemp(folder.data()) == nullptr) return -1;
  int status = -1;
  if (FILE* pipe = popen(("TMPDIR=" + shell_quoted(folder) + " " + command).c_str(), "r")) {
    char* line = nullptr;
    std::size_t capacity = 0;
    for (ssize_t got; (got = getline(&line, &capacity, pipe)) >= 0;)
      on_line(std::string(line, static_cast<std::size_t>(got > 0 && line[got - 1] == '\n' ? got - 1 : got)));
    std::free(line);
    status = pclose(pipe);
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  return status;
}

std::string how_to_get_torch() {
  return "no python3 with torch found ($ROOFLAB_PYTHON, .venv/bin/python3, python3); for this column, run ./lab "
         "peers (PyTorch and transformers from the Python package index into .venv)";
}

}  // namespace rooflab::bench
