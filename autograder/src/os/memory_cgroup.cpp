#include "os/memory_cgroup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// Writes `value` with one write(2), as cgroupfs expects; "" or strerror.
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

// "key value" lines (memory.events, memory.oom_control): the value of `key`.
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

// Kills what is left in a cgroup and removes it; a process that just exited
// leaves the list a moment later, so this retries for up to two seconds.
void remove_cgroup(const fs::path& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (true) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
    if (const auto procs = read_value(dir / "cgroup.procs"))
      for (const std::string& line : text::split_lines(*procs))
        if (!line.empty()) ::kill(static_cast<pid_t>(std::stol(line)), SIGKILL);
    if (std::chrono::steady_clock::now() >= deadline) return;  // left behind, empty of memory limits' purpose
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

struct Mounts {
  fs::path v2;         // where cgroup2 is mounted, if it is
  fs::path v1_memory;  // where the v1 hierarchy with the memory controller is mounted, if it is
};

Mounts read_mounts(const fs::path& mounts) {
  Mounts found;
  const auto text = read_value(mounts);
  if (!text) return found;
  for (const std::string& line : text::split_lines(*text)) {
    std::istringstream fields(line);
    std::string device, where, type, options;
    if (!(fields >> device >> where >> type >> options)) continue;
    if (type == "cgroup2" && found.v2.empty()) found.v2 = where;
    if (type == "cgroup" && has_word(options, "memory", ',') && found.v1_memory.empty()) found.v1_memory = where;
  }
  return found;
}

struct OwnCgroups {
  std::string v2;         // the path after "0::"
  std::string v1_memory;  // the path of the hierarchy whose controllers include memory
};

OwnCgroups read_own(const fs::path& self) {
  OwnCgroups own;
  const auto text = read_value(self);
  if (!text) return own;
  for (const std::string& line : text::split_lines(*text)) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (line.substr(0, first) == "0" && controllers.empty()) own.v2 = path;
    if (has_word(controllers, "memory", ',')) own.v1_memory = path;
  }
  return own;
}

fs::path below(const fs::path& mount, const std::string& path) { return mount / fs::path(path).relative_path(); }

// cgroup v2: the memory controller enabled for the children of `parent`, and
// the grading's cgroup created there with it enabled for its own children.
std::string try_v2(const fs::path& parent, const fs::path& dir) {
  const auto controllers = read_value(parent / "cgroup.controllers");
  if (!controllers) return "cannot read " + (parent / "cgroup.controllers").string();
  if (!has_word(*controllers, "memory", ' ')) return "the memory controller is not available at " + parent.string();
  const auto enabled = read_value(parent / "cgroup.subtree_control");
  if (!enabled || !has_word(*enabled, "memory", ' ')) {
    const std::string error = write_value(parent / "cgroup.subtree_control", "+memory");
    if (!error.empty())
      return "cannot enable the memory controller below " + parent.string() + " (" + error +
             "; the grader's cgroup holds processes or is not delegated to it)";
  }
  if (::mkdir(dir.c_str(), 0755) != 0) return "cannot create " + dir.string() + ": " + std::strerror(errno);
  const std::string error = write_value(dir / "cgroup.subtree_control", "+memory");
  if (!error.empty()) {
    ::rmdir(dir.c_str());
    return "cannot enable the memory controller in " + dir.string() + ": " + error;
  }
  return "";
}

// cgroup v1: the grading's cgroup in the memory hierarchy, accounting its
// children hierarchically.
std::string try_v1(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0) return "cannot create " + dir.string() + ": " + std::strerror(errno);
  if (!fs::exists(dir / "memory.limit_in_bytes")) {
    ::rmdir(dir.c_str());
    return dir.string() + " has no memory.limit_in_bytes";
  }
  write_value(dir / "memory.use_hierarchy", "1");  // the default, and the only choice on recent kernels
  return "";
}

}  // namespace

MemoryCgroup::MemoryCgroup(fs::path dir, CgroupVersion version, std::uint64_t limit_bytes)
    : dir_(std::move(dir)), version_(version), limit_(limit_bytes) {
  if (::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create the memory cgroup " + dir_.string() + ": " + std::strerror(errno));
  const std::string limit = std::to_string(limit_bytes);
  std::string error;
  if (version_ == CgroupVersion::v1) {
    error = write_value(dir_ / "memory.limit_in_bytes", limit);
    // With swap accounting, memory plus swap gets the same limit: no escape into swap.
    if (error.empty() && fs::exists(dir_ / "memory.memsw.limit_in_bytes"))
      write_value(dir_ / "memory.memsw.limit_in_bytes", limit);
  } else {
    error = write_value(dir_ / "memory.max", limit);
    if (fs::exists(dir_ / "memory.swap.max")) write_value(dir_ / "memory.swap.max", "0");
    if (fs::exists(dir_ / "memory.oom.group")) write_value(dir_ / "memory.oom.group", "1");
  }
  if (error.empty()) procs_fd_ = ::open((dir_ / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (!error.empty() || procs_fd_ < 0) {
    const std::string why = error.empty() ? std::strerror(errno) : error;
    remove_cgroup(dir_);
    throw std::runtime_error("cannot set up the memory cgroup " + dir_.string() + ": " + why);
  }
}

MemoryCgroup::~MemoryCgroup() {
  if (procs_fd_ >= 0) ::close(procs_fd_);
  remove_cgroup(dir_);
}

std::optional<std::uint64_t> MemoryCgroup::peak_bytes() const {
  return read_number(dir_ / (version_ == CgroupVersion::v1 ? "memory.max_usage_in_bytes" : "memory.peak"));
}

bool MemoryCgroup::oom_killed() const {
  return version_ == CgroupVersion::v1 ? keyed(dir_ / "memory.oom_control", "oom_kill") > 0
                                       : keyed(dir_ / "memory.events", "oom_kill") > 0;
}

std::string MemoryCgroup::locator() const {
  return std::string(version_ == CgroupVersion::v1 ? "v1:" : "v2:") + dir_.string();
}

MemoryCgroups MemoryCgroups::probe(const std::string& name, const fs::path& mounts, const fs::path& self) {
  MemoryCgroups cgroups;
  const Mounts mounted = read_mounts(mounts);
  const OwnCgroups own = read_own(self);
  std::string v2_problem = "cgroup2 is not mounted", v1_problem = "no cgroup v1 hierarchy holds the memory controller";
  if (!mounted.v2.empty() && !own.v2.empty()) {
    const fs::path parent = below(mounted.v2, own.v2);
    v2_problem = try_v2(parent, parent / name);
    if (v2_problem.empty()) {
      cgroups.version_ = CgroupVersion::v2;
      cgroups.dir_ = parent / name;
      return cgroups;
    }
  }
  if (!mounted.v1_memory.empty() && !own.v1_memory.empty()) {
    const fs::path dir = below(mounted.v1_memory, own.v1_memory) / name;
    v1_problem = try_v1(dir);
    if (v1_problem.empty()) {
      cgroups.version_ = CgroupVersion::v1;
      cgroups.dir_ = dir;
      return cgroups;
    }
  }
  cgroups.why_not_ = "cgroup v2: " + v2_problem + "; cgroup v1: " + v1_problem;
  return cgroups;
}

MemoryCgroups::~MemoryCgroups() {
  if (!dir_.empty()) remove_cgroup(dir_);
}

MemoryCgroups::MemoryCgroups(MemoryCgroups&& other) noexcept { *this = std::move(other); }

MemoryCgroups& MemoryCgroups::operator=(MemoryCgroups&& other) noexcept {
  if (this == &other) return *this;
  if (!dir_.empty()) remove_cgroup(dir_);
  version_ = other.version_;
  why_not_ = std::move(other.why_not_);
  dir_ = std::move(other.dir_);
  other.dir_.clear();
  other.version_ = CgroupVersion::none;
  return *this;
}

std::string MemoryCgroups::mechanism() const {
  switch (version_) {
    case CgroupVersion::v1:
      return "cgroup v1 memory controller";
    case CgroupVersion::v2:
      return "cgroup v2 memory controller";
    case CgroupVersion::none:
      break;
  }
  return "";
}

std::unique_ptr<MemoryCgroup> MemoryCgroups::create(const std::string& step, std::uint64_t limit_bytes) const {
  if (!available()) throw std::logic_error("MemoryCgroups::create without a cgroup hierarchy");
  return std::make_unique<MemoryCgroup>(dir_ / step, version_, limit_bytes);
}

std::optional<std::uint64_t> MemoryCgroups::peak_bytes() const {
  if (!available()) return std::nullopt;
  return read_number(dir_ / (version_ == CgroupVersion::v1 ? "memory.max_usage_in_bytes" : "memory.peak"));
}

}  // namespace rooflab
