#include "os/cgroup_fs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

#include "text/text.hpp"

namespace rooflab::cgroup_fs {
namespace fs = std::filesystem;

std::string write_value(const fs::path& file, const std::string& value) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  const ssize_t written = ::write(fd, value.data(), value.size());
  const int error = errno;
  ::close(fd);
  return written == static_cast<ssize_t>(value.size()) ? "" : std::strerror(error);
}

std::optional<std::string> read_value(const fs::path& file) {
  try {
    return text::read_file(file);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::uint64_t> read_number(const fs::path& file) {
  const auto text = read_value(file);
  if (!text) return std::nullopt;
  try {
    return std::stoull(*text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::uint64_t keyed(const fs::path& file, const std::string& key) {
  const auto text = read_value(file);
  if (!text) return 0;
  for (const std::string& line : text::split_lines(*text)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    if (fields >> name >> value && name == key) return value;
  }
  return 0;
}

bool has_word(const std::string& list, const std::string& word, char separator) {
  std::istringstream words(list);
  for (std::string item; std::getline(words, item, separator);)
    if (text::trim(item) == word) return true;
  return false;
}

void remove_cgroup(const fs::path& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (true) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
    if (const auto procs = read_value(dir / "cgroup.procs"))
      for (const std::string& line : text::split_lines(*procs))
        if (!line.empty()) ::kill(static_cast<pid_t>(std::stol(line)), SIGKILL);
    if (std::chrono::steady_clock::now() >= deadline) return;  // left behind, empty of its limits' purpose
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

namespace {

fs::path below(const fs::path& mount, const std::string& path) { return mount / fs::path(path).relative_path(); }

}  // namespace

fs::path Places::v2_dir() const { return v2_mount.empty() || v2_own.empty() ? fs::path() : below(v2_mount, v2_own); }

fs::path Places::v1_dir() const { return v1_mount.empty() || v1_own.empty() ? fs::path() : below(v1_mount, v1_own); }

Places find_places(const std::string& controller, const fs::path& mounts, const fs::path& self) {
  Places found;
  if (const auto text = read_value(mounts)) {
    for (const std::string& line : text::split_lines(*text)) {
      std::istringstream fields(line);
      std::string device, where, type, options;
      if (!(fields >> device >> where >> type >> options)) continue;
      if (type == "cgroup2" && found.v2_mount.empty()) found.v2_mount = where;
      if (type == "cgroup" && has_word(options, controller, ',') && found.v1_mount.empty()) found.v1_mount = where;
    }
  }
  if (const auto text = read_value(self)) {
    for (const std::string& line : text::split_lines(*text)) {
      const std::size_t first = line.find(':'), second = line.find(':', first + 1);
      if (first == std::string::npos || second == std::string::npos) continue;
      const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
      if (line.substr(0, first) == "0" && controllers.empty()) found.v2_own = path;
      if (has_word(controllers, controller, ',')) found.v1_own = path;
    }
  }
  return found;
}

std::string enable_v2(const fs::path& dir, const std::string& controller) {
  const auto enabled = read_value(dir / "cgroup.subtree_control");
  if (enabled && has_word(*enabled, controller, ' ')) return "";
  const std::string error = write_value(dir / "cgroup.subtree_control", "+" + controller);
  if (error.empty()) return "";
  return "cannot enable the " + controller + " controller below " + dir.string() + " (" + error +
         "; the grader's cgroup holds processes or is not delegated to it)";
}

std::string create_v2(const fs::path& parent, const fs::path& dir, const std::string& controller) {
  const auto controllers = read_value(parent / "cgroup.controllers");
  if (!controllers) return "cannot read " + (parent / "cgroup.controllers").string();
  if (!has_word(*controllers, controller, ' '))
    return "the " + controller + " controller is not available at " + parent.string();
  if (const std::string error = enable_v2(parent, controller); !error.empty()) return error;
  if (::mkdir(dir.c_str(), 0755) != 0) return "cannot create " + dir.string() + ": " + std::strerror(errno);
  const std::string error = write_value(dir / "cgroup.subtree_control", "+" + controller);
  if (!error.empty()) {
    ::rmdir(dir.c_str());
    return "cannot enable the " + controller + " controller in " + dir.string() + ": " + error;
  }
  return "";
}

}  // namespace rooflab::cgroup_fs
