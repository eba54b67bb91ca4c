#include "os/controller_cgroups.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "os/cgroup_fs.hpp"
#include "os/gone_graders.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// cgroup v2, beside the host's: `controller` enabled for the grader's
// children (the host's parent) and for the grading's steps (the host's).
std::string enable_beside(const fs::path& host, const std::string& controller) {
  const fs::path parent = host.parent_path();
  const auto controllers = cgroup_fs::read_value(parent / "cgroup.controllers");
  if (!controllers) return "cannot read " + (parent / "cgroup.controllers").string();
  if (!cgroup_fs::has_word(*controllers, controller, ' '))
    return "the " + controller + " controller is not available at " + parent.string();
  if (const std::string error = cgroup_fs::enable_v2(parent, controller); !error.empty()) return error;
  return cgroup_fs::enable_v2(host, controller);
}

// cgroup v1: the grading's cgroup in the controller's hierarchy.
std::string try_v1(const fs::path& dir, const std::string& v1_file) {
  if (::mkdir(dir.c_str(), 0755) != 0) return "cannot create " + dir.string() + ": " + std::strerror(errno);
  if (!fs::exists(dir / v1_file)) {
    ::rmdir(dir.c_str());
    return dir.string() + " has no " + v1_file;
  }
  return "";
}

}  // namespace

ControllerCgroup::ControllerCgroup(fs::path dir, bool owned) : dir_(std::move(dir)), owned_(owned) {
  if (!owned_) return;
  if (::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create the cgroup " + dir_.string() + ": " + std::strerror(errno));
  procs_fd_ = ::open((dir_ / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (procs_fd_ < 0) {
    const std::string error = std::strerror(errno);
    cgroup_fs::remove_cgroup(dir_);
    throw std::runtime_error("cannot join the cgroup " + dir_.string() + ": " + error);
  }
}

ControllerCgroup::~ControllerCgroup() {
  if (procs_fd_ >= 0) ::close(procs_fd_);
  if (owned_) cgroup_fs::remove_cgroup(dir_);
}

void ControllerCgroup::set(const std::string& file, const std::string& value) {
  const std::string error = cgroup_fs::write_value(dir_ / file, value);
  if (error.empty()) return;
  throw std::runtime_error("cannot set " + (dir_ / file).string() + " to " + value + ": " + error);
}

ControllerCgroups ControllerCgroups::probe(const std::string& controller, const std::string& v1_file,
                                           const std::string& name, const fs::path& v2_host, const fs::path& mounts,
                                           const fs::path& self) {
  ControllerCgroups cgroups;
  cgroups.controller_ = controller;
  const cgroup_fs::Places places = cgroup_fs::find_places(controller, mounts, self);
  std::string v2_problem = "cgroup2 is not mounted",
              v1_problem = "no cgroup v1 hierarchy holds the " + controller + " controller";
  if (!v2_host.empty()) {
    // A process belongs to one v2 cgroup: its step's, holding every controller.
    v2_problem = enable_beside(v2_host, controller);
    if (v2_problem.empty()) {
      cgroups.version_ = CgroupVersion::v2;
      cgroups.shared_ = true;
      cgroups.host_ = v2_host;
      return cgroups;
    }
  } else if (const fs::path parent = places.v2_dir(); !parent.empty()) {
    remove_cgroups_of_gone_graders(parent);
    v2_problem = cgroup_fs::create_v2(parent, parent / name, controller);
    if (v2_problem.empty()) {
      cgroups.version_ = CgroupVersion::v2;
      cgroups.dir_ = parent / name;
      return cgroups;
    }
  }
  if (const fs::path parent = places.v1_dir(); !parent.empty()) {
    remove_cgroups_of_gone_graders(parent);
    v1_problem = try_v1(parent / name, v1_file);
    if (v1_problem.empty()) {
      cgroups.version_ = CgroupVersion::v1;
      cgroups.dir_ = parent / name;
      return cgroups;
    }
  }
  cgroups.why_not_ = "cgroup v2: " + v2_problem + "; cgroup v1: " + v1_problem;
  return cgroups;
}

ControllerCgroups::~ControllerCgroups() {
  if (!dir_.empty()) cgroup_fs::remove_cgroup(dir_);
}

ControllerCgroups::ControllerCgroups(ControllerCgroups&& other) noexcept { *this = std::move(other); }

ControllerCgroups& ControllerCgroups::operator=(ControllerCgroups&& other) noexcept {
  if (this == &other) return *this;
  if (!dir_.empty()) cgroup_fs::remove_cgroup(dir_);
  controller_ = std::move(other.controller_);
  version_ = other.version_;
  shared_ = other.shared_;
  why_not_ = std::move(other.why_not_);
  dir_ = std::move(other.dir_);
  host_ = std::move(other.host_);
  other.dir_.clear();
  other.host_.clear();
  other.version_ = CgroupVersion::none;
  other.shared_ = false;
  return *this;
}

fs::path ControllerCgroups::v2_dir() const { return version_ == CgroupVersion::v2 ? dir_ : fs::path(); }

std::string ControllerCgroups::mechanism() const {
  switch (version_) {
    case CgroupVersion::v1:
      return "cgroup v1 " + controller_ + " controller";
    case CgroupVersion::v2:
      return "cgroup v2 " + controller_ + " controller";
    case CgroupVersion::none:
      break;
  }
  return "";
}

fs::path ControllerCgroups::step_dir(const std::string& step, const fs::path& host_step) const {
  if (!available()) throw std::logic_error("no " + controller_ + " cgroup hierarchy for the step " + step);
  if (!shared_) return dir_ / step;
  if (host_step.empty()) throw std::logic_error("cgroup v2 " + controller_ + ": the step " + step + " has no cgroup");
  return host_step;
}

std::string ControllerCgroups::set_on_grading(const std::string& file, const std::string& value) const {
  const fs::path path = (shared_ ? host_ : dir_) / file;
  const std::string error = cgroup_fs::write_value(path, value);
  return error.empty() ? "" : "cannot set " + path.string() + " to " + value + ": " + error;
}

void ControllerCgroups::give_up(const std::string& why) {
  if (!dir_.empty()) cgroup_fs::remove_cgroup(dir_);
  dir_.clear();
  host_.clear();
  version_ = CgroupVersion::none;
  shared_ = false;
  why_not_ = why;
}

}  // namespace rooflab
