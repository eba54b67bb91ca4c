#include "os/memory_cgroup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "os/cgroup_fs.hpp"

namespace rooflab {
namespace fs = std::filesystem;
using cgroup_fs::keyed;
using cgroup_fs::read_number;
using cgroup_fs::remove_cgroup;
using cgroup_fs::write_value;
namespace {

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
  const cgroup_fs::Places places = cgroup_fs::find_places("memory", mounts, self);
  std::string v2_problem = "cgroup2 is not mounted", v1_problem = "no cgroup v1 hierarchy holds the memory controller";
  if (const fs::path parent = places.v2_dir(); !parent.empty()) {
    v2_problem = cgroup_fs::create_v2(parent, parent / name, "memory");
    if (v2_problem.empty()) {
      cgroups.version_ = CgroupVersion::v2;
      cgroups.dir_ = parent / name;
      return cgroups;
    }
  }
  if (const fs::path parent = places.v1_dir(); !parent.empty()) {
    v1_problem = try_v1(parent / name);
    if (v1_problem.empty()) {
      cgroups.version_ = CgroupVersion::v1;
      cgroups.dir_ = parent / name;
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
