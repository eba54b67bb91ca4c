// Kernel-enforced memory for sandboxed steps: which hierarchy the grader picks,
// and that a step's cgroup counts its tmpfs files and stops it at its limit.
#include "os/memory_cgroup.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "os/sandbox.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kScratch = rooflab::testing::program_temp_folder("cgroup-test");

// A fake /proc/self/mounts, /proc/self/cgroup and cgroupfs under kScratch.
struct FakeMachine {
  fs::path mounts = kScratch / "mounts", self = kScratch / "cgroup", root = kScratch / "fs";
  FakeMachine(const std::string& mounts_text, const std::string& self_text) {
    fs::remove_all(kScratch);
    text::write_file(mounts, mounts_text);
    text::write_file(self, self_text);
  }
  ~FakeMachine() { fs::remove_all(kScratch); }
};

TEST(MemoryCgroups, TriesCgroupV2FirstEnablingTheMemoryControllerBelowTheGrader) {
  const FakeMachine machine("cgroup2 " + (kScratch / "fs").string() + " cgroup2 rw 0 0\n", "0::/grader.scope\n");
  text::write_file(machine.root / "grader.scope" / "cgroup.controllers", "cpu memory pids\n");
  text::write_file(machine.root / "grader.scope" / "cgroup.subtree_control", "");
  const MemoryCgroups cgroups = MemoryCgroups::probe("grading", machine.mounts, machine.self);
  // The grader's cgroup got the memory controller for its children...
  EXPECT_EQ(text::read_file(machine.root / "grader.scope" / "cgroup.subtree_control"), "+memory");
  // ...and a plain folder is no cgroupfs: the new one has no cgroup.subtree_control.
  EXPECT_FALSE(cgroups.available());
  EXPECT_NE(cgroups.why_not().find("cannot enable the memory controller in " +
                                   (machine.root / "grader.scope" / "grading").string()),
            std::string::npos)
      << cgroups.why_not();
  EXPECT_FALSE(fs::exists(machine.root / "grader.scope" / "grading")) << "a failed probe leaves nothing behind";
}

TEST(MemoryCgroups, SaysWhyThereIsNone) {
  const FakeMachine machine("proc /proc proc rw 0 0\n", "0::/\n");
  const MemoryCgroups cgroups = MemoryCgroups::probe("grading", machine.mounts, machine.self);
  EXPECT_FALSE(cgroups.available());
  EXPECT_EQ(cgroups.mechanism(), "");
  EXPECT_NE(cgroups.why_not().find("cgroup2 is not mounted"), std::string::npos) << cgroups.why_not();
  EXPECT_NE(cgroups.why_not().find("no cgroup v1 hierarchy holds the memory controller"), std::string::npos);
}

TEST(MemoryCgroups, V2WithoutTheMemoryControllerFallsBackToV1) {
  const FakeMachine machine("cgroup2 " + (kScratch / "fs").string() + " cgroup2 rw 0 0\ncgroup " +
                                (kScratch / "v1").string() + " cgroup rw,memory 0 0\n",
                            "4:memory:/job\n0::/job\n");
  text::write_file(machine.root / "job" / "cgroup.controllers", "cpu pids\n");
  fs::create_directories(kScratch / "v1" / "job");
  const MemoryCgroups cgroups = MemoryCgroups::probe("grading", machine.mounts, machine.self);
  // The fake v1 folder has no memory.limit_in_bytes either: both reasons are given.
  EXPECT_FALSE(cgroups.available());
  EXPECT_NE(cgroups.why_not().find("the memory controller is not available at"), std::string::npos)
      << cgroups.why_not();
  EXPECT_NE(cgroups.why_not().find("has no memory.limit_in_bytes"), std::string::npos) << cgroups.why_not();
}

// The real machine: a step's cgroup counts the files it writes to its tmpfs
// /tmp, which RLIMIT_AS never sees, and the kernel stops the step at the limit.
TEST(MemoryCgroups, CountTmpfsFilesAndStopAStepAtItsLimit) {
  const MemoryCgroups cgroups = MemoryCgroups::probe("rooflab-cgroup-test-" + std::to_string(::getpid()));
  if (!cgroups.available()) GTEST_SKIP() << "no memory cgroup here: " << cgroups.why_not();
  const Sandbox sandbox(SandboxMode::automatic);
  if (!sandbox.isolated() || !sandbox.sized_tmp()) GTEST_SKIP() << "needs bubblewrap with --size";
  fs::create_directories(kScratch);
  const auto write_tmp = [&](int mib, std::uint64_t limit) {
    const auto cgroup = cgroups.create("step", limit);
    SandboxView view;
    view.tmp_bytes = std::uint64_t{512} << 20;  // the tmpfs would hold it: only the cgroup can stop it
    view.cgroup_procs_fds = {cgroup->procs_fd()};
    sandbox.hand_over(kScratch);
    const ProcessResult ran =
        sandbox.run({"/bin/sh", "-c", "head -c " + std::to_string(mib) + "M /dev/zero > /tmp/scores && echo written"},
                    view, kScratch, kScratch / "step.log", ProcessLimits::timeout(60));
    return std::tuple{ran, cgroup->oom_killed(), cgroup->peak_bytes().value_or(0)};
  };
  const auto [small, small_killed, small_peak] = write_tmp(32, std::uint64_t{128} << 20);
  EXPECT_TRUE(small.succeeded()) << small.describe(60) << small.output;
  EXPECT_FALSE(small_killed);
  EXPECT_GE(small_peak, std::uint64_t{32} << 20) << "the tmpfs file counts in the cgroup";
  const auto [big, big_killed, big_peak] = write_tmp(256, std::uint64_t{128} << 20);
  EXPECT_FALSE(big.succeeded()) << big.output;
  EXPECT_TRUE(big_killed);
  EXPECT_LE(big_peak, std::uint64_t{128} << 20);
  fs::remove_all(kScratch);
}

}  // namespace
}  // namespace rooflab
