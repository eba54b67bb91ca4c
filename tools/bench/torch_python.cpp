#include "torch_python.hpp"

#include <cstdlib>
#include <filesystem>
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
    if (std::system(probe.c_str()) == 0) return python;
  }
  return std::nullopt;
}

std::string how_to_get_torch() {
  return "no python3 with torch found ($ROOFLAB_PYTHON, .venv/bin/python3, python3); for this column, run ./lab "
         "peers (PyTorch and transformers from the Python package index into .venv)";
}

}  // namespace rooflab::bench
