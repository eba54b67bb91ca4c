// A grading's scratch space is capped: by the kernel where the grader may
// mount a tmpfs, else by a watcher that stops the grading's processes.
#include "os/scratch_space.hpp"

#include <gtest/gtest.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "os/gone_graders.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// The pid of a process that has exited and been reaped: a gone grader's.
pid_t gone_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  if (child > 0) ::waitpid(child, nullptr, 0);
  return child;
}

// The empty mount point a grading killed outright leaves: removed once its
// grader is gone and it is a minute old; nothing else is.
TEST(ScratchSpace, AbandonedMountPointsOfGoneGradingsAreRemoved) {
  const testing::TempFolder folder("abandoned-scratch");
  const pid_t gone = gone_pid();
  ASSERT_GT(gone, 0);
  const auto age = [](const fs::path& path) {
    const timeval long_ago[2] = {{std::time(nullptr) - 3600, 0}, {std::time(nullptr) - 3600, 0}};
    ::utimes(path.c_str(), long_ago);
  };
  const auto make = [&](const std::string& name, bool old) {
    const fs::path path = folder.path() / name;
    fs::create_directories(path);
    if (old) age(path);
    return path;
  };
  const std::string dead = "rooflab-grade-" + std::to_string(gone) + "-";
  const fs::path abandoned = make(dead + "1", true);
  const fs::path young = make(dead + "2", false);
  const fs::path holding = make(dead + "3", false);
  text::write_file(holding / "log", "kept\n");
  age(holding);
  const fs::path running = make("rooflab-grade-" + std::to_string(::getpid()) + "-4", true);
  const fs::path other = make("rooflab-grade-all", true);
  remove_abandoned_mount_points(folder.path());
  EXPECT_FALSE(fs::exists(abandoned));
  EXPECT_TRUE(fs::exists(young));
  EXPECT_TRUE(fs::exists(holding / "log"));
  EXPECT_TRUE(fs::exists(running));
  EXPECT_TRUE(fs::exists(other));
}

// A gone grader's cgroups, children first; a running grader's stay, and so
// does a folder rmdir cannot remove (on cgroupfs: one holding a process).
TEST(ScratchSpace, CgroupsOfGoneGradersAreRemoved) {
  const testing::TempFolder folder("gone-cgroups");
  const pid_t gone = gone_pid();
  ASSERT_GT(gone, 0);
  const fs::path dead = folder.path() / ("rooflab-grade-" + std::to_string(gone) + "-1");
  const fs::path busy = folder.path() / ("rooflab-grade-" + std::to_string(gone) + "-2");
  const fs::path running = folder.path() / ("rooflab-grade-" + std::to_string(::getpid()) + "-3");
  fs::create_directories(dead / "build-0" / "test-1");
  fs::create_directories(busy / "build-0");
  text::write_file(busy / "build-0" / "cgroup.procs", "42\n");
  fs::create_directories(running / "build-0");
  remove_cgroups_of_gone_graders(folder.path());
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(busy / "build-0" / "cgroup.procs"));
  EXPECT_TRUE(fs::exists(running / "build-0"));
  EXPECT_FALSE(left_by_a_gone_grader("rooflab-grade-all"));
  EXPECT_FALSE(left_by_a_gone_grader("rooflab-grade-" + std::to_string(::getpid()) + "-9"));
}

TEST(ScratchSpace, HoldsNoMoreThanItsCapAndTellsItsPeak) {
  constexpr std::uint64_t kCap = std::uint64_t{8} << 20;
  fs::path where;
  {
    const ScratchSpace scratch(kCap);
    where = scratch.path();
    ASSERT_TRUE(fs::is_directory(where));
    std::ofstream file(where / "big", std::ios::binary);
    const std::string mib(1 << 20, 'x');
    std::size_t written = 0;
    for (int i = 0; i < 16 && file.write(mib.data(), static_cast<std::streamsize>(mib.size())).flush(); ++i)
      written += mib.size();
    if (scratch.kernel_enforced()) {
      EXPECT_LE(written, kCap) << "the tmpfs refuses what is over its cap";
      EXPECT_NE(scratch.describe().find("kernel-enforced"), std::string::npos) << scratch.describe();
    } else {
      EXPECT_NE(scratch.describe().find("not kernel-enforced"), std::string::npos) << scratch.describe();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(scratch.kernel_enforced() ? 400 : 2200));
    EXPECT_GE(scratch.peak_bytes(), std::uint64_t{4} << 20) << scratch.describe();
    if (!scratch.kernel_enforced()) {
      EXPECT_TRUE(scratch.overflowed()) << scratch.describe();
    }
  }
  EXPECT_FALSE(fs::exists(where)) << "the scratch space is removed with the grading";
}

}  // namespace
}  // namespace rooflab
