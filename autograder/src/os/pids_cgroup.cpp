#include "os/pids_cgroup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "os/cgroup_fs.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// cgroup v2, where the memory cgroups are v2 too: the pids controller enabled
// beside memory, for the grader's children and for the grading's steps.
std::string enable_beside_memory(const fs::path& grading) {
  const fs::path parent = grading.parent_path();
  const auto controllers = cgroup_fs::read_value(parent / "cgroup.controllers");
  if (!controllers) return "cannot read " + (parent / "cgroup.controllers").string();
  if (!cgroup_fs::has_word(*controllers, "pids", ' '))
    return "the pids controller is not available at " + parent.string();
  if (const std::string error = cgroup_fs::enable_v2(parent, "pids"); !error.empty()) return error;
  return cgroup_fs::enable_v2(grading, "pids");
}

// cgroup v1: the grading's cgroup in the pids hierarchy.
std::string try_v1(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0) return "cannot create " + dir.string() + ": " + std::strerror(errno);
  if (!fs::exists(dir / "pids.max")) {
    ::rmdir(dir.c_str());
    return dir.string() + " has no pids.max";
  }
  return "";
}

}  // namespace

PidsCgroup::PidsCgroup(fs::path dir, std::uint64_t limit, bool owned)
    : dir_(std::move(dir)), limit_(limit), owned_(owned) {
  if (owned_ && ::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create the pids cgroup " + dir_.string() + ": " + std::strerror(errno));
  std::string error = cgroup_fs::write_value(dir_ / "pids.max", std::to_string(limit));
  if (error.empty() && owned_) {
    procs_fd_ = ::open((dir_ / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (procs_fd_ < 0) error = std::strerror(errno);
  }
  if (!error.empty()) {
    if (owned_) cgroup_fs::remove_cgroup(dir_);
    throw std::runtime_error("cannot set up the pids cgroup " + dir_.string() + ": " + error);
  }
}

PidsCgroup::~PidsCgroup() {
  if (procs_fd_ >= 0) ::close(procs_fd_);
  if (owned_) cgroup_fs::remove_cgroup(dir_);
}

std::uint64_t PidsCgroup::current() const { return cgroup_fs::read_number(dir_ / "pids.current").value_or(0); }

std::uint64_t PidsCgroup::refused() const { return cgroup_fs::keyed(dir_ / "pids.events", "max"); }

PidsCgroups PidsCgroups::probe(const std::string& name, const MemoryCgroups& memory, const fs::path& mounts,
                               const fs::path& self) {
  PidsCgroups cgroups;
  const cgroup_fs::Places places = cgroup_fs::find_places("pids", mounts, self);
  std::string v2_problem = "cgroup2 is not mounted", v1_problem = "no cgroup v1 hierarchy holds the pids controller";
  if (memory.version() == CgroupVersion::v2) {
    // A process belongs to one v2 cgroup: its step's, holding both controllers.
    v2_problem = enable_beside_memory(memory.dir());
    if (v2_problem.empty()) {
      cgroups.version_ = CgroupVersion::v2;
      cgroups.shared_ = true;
      return cgroups;
    }
  } else if (const fs::path parent = places.v2_dir(); !parent.empty()) {
    v2_problem = cgroup_fs::create_v2(parent, parent / name, "pids");
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

PidsCgroups::~PidsCgroups() {
  if (!dir_.empty()) cgroup_fs::remove_cgroup(dir_);
}

PidsCgroups::PidsCgroups(PidsCgroups&& other) noexcept { *this = std::move(other); }

PidsCgroups& PidsCgroups::operator=(PidsCgroups&& other) noexcept {
  if (this == &other) return *this;
  if (!dir_.empty()) cgroup_fs::remove_cgroup(dir_);
  version_ = other.version_;
  shared_ = other.shared_;
  why_not_ = std::move(other.why_not_);
  dir_ = std::move(other.dir_);
  other.dir_.clear();
  other.version_ = CgroupVersion::none;
  other.shared_ = false;
  return *this;
}

std::string PidsCgroups::mechanism() const {
  switch (version_) {
    case CgroupVersion::v1:
      return "cgroup v1 pids controller";
    case CgroupVersion::v2:
      return "cgroup v2 pids controller";
    case CgroupVersion::none:
      break;
  }
  return "";
}

std::unique_ptr<PidsCgroup> PidsCgroups::create(const std::string& step, std::uint64_t limit,
                                                const MemoryCgroup* memory) const {
  if (!available()) throw std::logic_error("PidsCgroups::create without a pids hierarchy");
  if (!shared_) return std::make_unique<PidsCgroup>(dir_ / step, limit, true);
  if (!memory) throw std::logic_error("PidsCgroups::create: cgroup v2 needs the step's memory cgroup");
  return std::make_unique<PidsCgroup>(memory->dir(), limit, false);
}

}  // namespace rooflab
