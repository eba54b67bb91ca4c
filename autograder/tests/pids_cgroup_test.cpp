// Kernel-enforced process counts for sandboxed steps: which hierarchy the
// grader picks, that a step cannot start more tasks than its pids.max, and
// that one step full of processes leaves another step's forks alone (two
// tests, or two gradings, no longer share one user's RLIMIT_NPROC).
#include "os/pids_cgroup.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/sandbox.hpp"
#include "os/step_cgroups.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kScratch = rooflab::testing::program_temp_folder("pids-test");

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

TEST(PidsCgroups, SaysWhyThereIsNone) {
  const FakeMachine machine("proc /proc proc rw 0 0\n", "0::/\n");
  const PidsCgroups cgroups = PidsCgroups::probe("grading", MemoryCgroups{}, machine.mounts, machine.self);
  EXPECT_FALSE(cgroups.available());
  EXPECT_EQ(cgroups.mechanism(), "");
  EXPECT_NE(cgroups.why_not().find("cgroup2 is not mounted"), std::string::npos) << cgroups.why_not();
  EXPECT_NE(cgroups.why_not().find("no cgroup v1 hierarchy holds the pids controller"), std::string::npos);
}

TEST(PidsCgroups, TriesCgroupV2BelowTheGraderWhereTheMemoryCgroupsAreNot) {
  const FakeMachine machine("cgroup2 " + (kScratch / "fs").string() + " cgroup2 rw 0 0\n", "0::/grader.scope\n");
  text::write_file(machine.root / "grader.scope" / "cgroup.controllers", "cpu pids\n");
  text::write_file(machine.root / "grader.scope" / "cgroup.subtree_control", "");
  const PidsCgroups cgroups = PidsCgroups::probe("grading", MemoryCgroups{}, machine.mounts, machine.self);
  // The grader's cgroup got the pids controller for its children...
  EXPECT_EQ(text::read_file(machine.root / "grader.scope" / "cgroup.subtree_control"), "+pids");
  // ...and a plain folder is no cgroupfs: the new one has no cgroup.subtree_control.
  EXPECT_FALSE(cgroups.available());
  EXPECT_NE(cgroups.why_not().find("cannot enable the pids controller in " +
                                   (machine.root / "grader.scope" / "grading").string()),
            std::string::npos)
      << cgroups.why_not();
  EXPECT_FALSE(fs::exists(machine.root / "grader.scope" / "grading")) << "a failed probe leaves nothing behind";
}

TEST(PidsCgroups, V1FolderWithoutPidsMaxIsNoPidsCgroup) {
  const FakeMachine machine("cgroup " + (kScratch / "v1").string() + " cgroup rw,pids 0 0\n", "8:pids:/job\n");
  fs::create_directories(kScratch / "v1" / "job");
  const PidsCgroups cgroups = PidsCgroups::probe("grading", MemoryCgroups{}, machine.mounts, machine.self);
  EXPECT_FALSE(cgroups.available());
  EXPECT_NE(cgroups.why_not().find("has no pids.max"), std::string::npos) << cgroups.why_not();
  EXPECT_FALSE(fs::exists(kScratch / "v1" / "job" / "grading"));
}

// The real machine's memory and pids cgroups for one test, or a skip that says why.
struct RealCgroups {
  MemoryCgroups memory = MemoryCgroups::probe("rooflab-pids-test-" + std::to_string(::getpid()));
  PidsCgroups pids = PidsCgroups::probe("rooflab-pids-test-" + std::to_string(::getpid()), memory);
  CpuCgroups cpu = CpuCgroups::probe("rooflab-pids-test-" + std::to_string(::getpid()), memory, pids, 1);
  StepCgroups step(const std::string& name, std::uint64_t tasks) const {
    return StepCgroups::create(memory, pids, cpu, name, std::uint64_t{256} << 20, tasks);
  }
};

// A process that joins `fds` (as a sandboxed step's first process does), then
// forks children that wait to be killed, at most `tries`, until a fork fails.
// It reports how many it started through `report` and then waits to be killed
// itself, holding its step full. Runs in a process group of its own.
pid_t start_forker(const std::vector<int>& fds, int tries, int report) {
  const pid_t forker = ::fork();
  if (forker != 0) return forker;
  ::setpgid(0, 0);
  for (const int fd : fds)
    if (::write(fd, "0", 1) != 1) ::_exit(1);
  int started = 0;
  for (; started < tries; ++started) {
    const pid_t child = ::fork();
    if (child < 0) break;
    if (child == 0) {
      ::pause();
      ::_exit(0);
    }
  }
  if (::write(report, &started, sizeof started) != sizeof started) ::_exit(1);
  ::pause();
  ::_exit(0);
}

// Starts a forker and waits for its count; `forker` is left running.
int forks_started(const std::vector<int>& fds, int tries, pid_t& forker) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return -1;
  forker = start_forker(fds, tries, pipe_fds[1]);
  ::close(pipe_fds[1]);
  int started = -1;
  if (::read(pipe_fds[0], &started, sizeof started) != sizeof started) started = -1;
  ::close(pipe_fds[0]);
  return started;
}

void stop(pid_t forker) {
  ::kill(-forker, SIGKILL);
  ::waitpid(forker, nullptr, 0);
}

TEST(PidsCgroups, AStepCannotStartMoreTasksThanItsLimit) {
  const RealCgroups cgroups;
  if (!cgroups.pids.available()) GTEST_SKIP() << "no pids cgroup here: " << cgroups.pids.why_not();
  const StepCgroups step = cgroups.step("limited", 8);
  pid_t forker = -1;
  // The forker is one of the 8: it starts 7 more, however many it tries.
  EXPECT_EQ(forks_started(step.procs_fds(), 100, forker), 7);
  EXPECT_EQ(step.pids->current(), 8u);
  EXPECT_GE(step.pids->refused(), 1u) << "the kernel counts the fork it refused";
  stop(forker);
}

TEST(PidsCgroups, OneStepFullOfProcessesLeavesAnotherStepsForksAlone) {
  const RealCgroups cgroups;
  if (!cgroups.pids.available()) GTEST_SKIP() << "no pids cgroup here: " << cgroups.pids.why_not();
  const StepCgroups full = cgroups.step("full", 8), other = cgroups.step("other", 8);
  pid_t filler = -1, late = -1, neighbour = -1;
  ASSERT_EQ(forks_started(full.procs_fds(), 100, filler), 7);
  // A process joining the full step can start nothing...
  EXPECT_EQ(forks_started(full.procs_fds(), 4, late), 0);
  // ...while the other step, the same user's, forks as if the first were empty.
  EXPECT_EQ(forks_started(other.procs_fds(), 4, neighbour), 4);
  EXPECT_EQ(other.pids->refused(), 0u);
  for (const pid_t forker : {filler, late, neighbour}) stop(forker);
}

// The whole path a worker takes: bubblewrap, as the sandbox user, in the
// step's cgroups. A shell that forks without end stops at the step's limit.
TEST(PidsCgroups, ASandboxedForkBombStopsAtItsStepsLimit) {
  const RealCgroups cgroups;
  if (!cgroups.pids.available()) GTEST_SKIP() << "no pids cgroup here: " << cgroups.pids.why_not();
  const Sandbox sandbox(SandboxMode::automatic);
  if (!sandbox.isolated()) GTEST_SKIP() << "bubblewrap cannot run here: " << sandbox.weakness();
  const StepCgroups step = cgroups.step("bomb", 16);
  SandboxView view;
  view.cgroup_procs_fds = step.procs_fds();
  sandbox.hand_over(kScratch);
  const ProcessResult ran =
      sandbox.run({"/bin/sh", "-c", "i=0; while [ $i -lt 64 ]; do sleep 30 & i=$((i+1)); echo $i; done"}, view,
                  kScratch, kScratch / "bomb.log", ProcessLimits::timeout(60));
  const std::vector<std::string> lines = text::split_lines(text::trim(ran.output));
  int started = 0;
  for (const std::string& line : lines)
    if (!line.empty() && line.find_first_not_of("0123456789") == std::string::npos) started = std::stoi(line);
  // bubblewrap and the shell hold some of the 16; the rest are sleeps.
  EXPECT_GT(started, 0) << ran.output;
  EXPECT_LT(started, 16) << ran.output;
  EXPECT_GE(step.pids->refused(), 1u) << ran.output;
  fs::remove_all(kScratch);
}

}  // namespace
}  // namespace rooflab
