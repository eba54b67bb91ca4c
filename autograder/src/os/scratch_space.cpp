#include "os/scratch_space.hpp"

#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>

#include "os/gone_graders.hpp"
#include "os/process.hpp"
#include "os/tree_bytes.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// A mount namespace of this process's own, with the rest of the machine's
// mounts private to it: what this process mounts from now on, nobody else sees.
std::string private_mounts() {
  if (::unshare(CLONE_NEWNS) != 0) return std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return std::string("making mounts private: ") + std::strerror(errno);
  return "";
}

}  // namespace

ScratchSpace::ScratchSpace(std::uint64_t cap_bytes) : cap_(cap_bytes) {
  remove_abandoned_mount_points(fs::temp_directory_path());
  std::random_device random;
  path_ = fs::temp_directory_path() /
          ("rooflab-grade-" + std::to_string(::getpid()) + "-" + std::to_string(random() % 1000000));
  fs::create_directories(path_);
  // Mounting needs CAP_SYS_ADMIN; an unprivileged grader uses the watcher.
  why_not_mounted_ = ::geteuid() == 0 ? private_mounts() : "the grader is not root";
  if (why_not_mounted_.empty()) {
    const std::string options = "size=" + std::to_string(cap_bytes) + ",mode=0755";
    if (::mount("rooflab-scratch", path_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      why_not_mounted_ = std::string("mounting a tmpfs: ") + std::strerror(errno);
    }
  }
  watcher_ = std::thread([this] { watch(); });
}

ScratchSpace::~ScratchSpace() {
  stop_ = true;
  watcher_.join();
  kill_processes_mentioning(path_.string(), 30);  // nothing started for this grading outlives it
  std::error_code ignored;
  if (mounted_) {
    ::umount2(path_.c_str(), MNT_DETACH);  // frees the tmpfs at once
  } else {
    fs::remove_all(path_, ignored);
  }
  fs::remove(path_, ignored);  // the empty mount point on the machine's disk
}

std::uint64_t ScratchSpace::used_bytes() const {
  if (!mounted_) return tree_bytes(path_);
  struct statvfs info {};
  if (::statvfs(path_.c_str(), &info) != 0) return 0;
  return static_cast<std::uint64_t>(info.f_blocks - info.f_bfree) * info.f_frsize;
}

void ScratchSpace::watch() {
  const auto interval = std::chrono::milliseconds(mounted_ ? 200 : 1000);
  while (!stop_) {
    const std::uint64_t used = used_bytes();
    if (used > peak_) peak_ = used;
    if (!mounted_ && used > cap_ && !overflowed_.exchange(true)) kill_processes_mentioning(path_.string(), 5);
    for (auto waited = std::chrono::milliseconds(0); waited < interval && !stop_;
         waited += std::chrono::milliseconds(50))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::string ScratchSpace::describe() const {
  if (mounted_)
    return "Scratch space (stage, build, logs): a " + text::mib(cap_) +
           " tmpfs private to the grader (kernel-enforced); peak " + text::mib(peak_) + ".";
  return "Scratch space (stage, build, logs): " + path_.string() + ", measured every second and capped at " +
         text::mib(cap_) + " by stopping the grading's processes (not kernel-enforced: " + why_not_mounted_ +
         "); peak " + text::mib(peak_) + (overflowed_ ? ", OVER THE CAP: the grading's processes were stopped." : ".");
}

}  // namespace rooflab
