// CPU time shared between steps, not processes: which hierarchy the grader
// picks, and that a step of one spinning process gets about as much CPU as a
// step of sixteen beside it (the scheduler alone would give it a seventeenth,
// and a fork bomb in one grading would push another's tests past their time
// limits).
#include "os/cpu_cgroup.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vector>

#include "os/step_cgroups.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kScratch = rooflab::testing::program_temp_folder("cpu-test");

TEST(CpuCgroups, SaysWhyThereIsNone) {
  fs::remove_all(kScratch);
  text::write_file(kScratch / "mounts", "proc /proc proc rw 0 0\n");
  text::write_file(kScratch / "cgroup", "0::/\n");
  const CpuCgroups cgroups =
      CpuCgroups::probe("grading", MemoryCgroups{}, PidsCgroups{}, 2, kScratch / "mounts", kScratch / "cgroup");
  EXPECT_FALSE(cgroups.available());
  EXPECT_EQ(cgroups.mechanism(), "");
  EXPECT_NE(cgroups.why_not().find("cgroup2 is not mounted"), std::string::npos) << cgroups.why_not();
  EXPECT_NE(cgroups.why_not().find("no cgroup v1 hierarchy holds the cpu controller"), std::string::npos);
  fs::remove_all(kScratch);
}

TEST(CpuCgroups, V1FolderWithoutCpuSharesIsNoCpuCgroup) {
  fs::remove_all(kScratch);
  // "cpu,cpuacct" is how many machines mount it: the controller is one word of the options.
  text::write_file(kScratch / "mounts", "cgroup " + (kScratch / "v1").string() + " cgroup rw,cpu,cpuacct 0 0\n");
  text::write_file(kScratch / "cgroup", "3:cpu,cpuacct:/job\n");
  fs::create_directories(kScratch / "v1" / "job");
  const CpuCgroups cgroups =
      CpuCgroups::probe("grading", MemoryCgroups{}, PidsCgroups{}, 2, kScratch / "mounts", kScratch / "cgroup");
  EXPECT_FALSE(cgroups.available());
  EXPECT_NE(cgroups.why_not().find("job/grading has no cpu.shares"), std::string::npos) << cgroups.why_not();
  EXPECT_FALSE(fs::exists(kScratch / "v1" / "job" / "grading")) << "a failed probe leaves nothing behind";
  fs::remove_all(kScratch);
}

double seconds_now() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// A process that joins `fds` (as a sandboxed step's first process does) and
// starts `spinners` children that spin until `until` (CLOCK_MONOTONIC). It
// waits for them and writes the CPU seconds they used to `report`.
pid_t start_spinners(const std::vector<int>& fds, int spinners, double until, int report) {
  const pid_t parent = ::fork();
  if (parent != 0) return parent;
  for (const int fd : fds)
    if (::write(fd, "0", 1) != 1) ::_exit(1);
  for (int i = 0; i < spinners; ++i)
    if (::fork() == 0) {
      while (seconds_now() < until) {
      }
      ::_exit(0);
    }
  while (::wait(nullptr) > 0) {
  }
  rusage used{};
  ::getrusage(RUSAGE_CHILDREN, &used);
  const double cpu = static_cast<double>(used.ru_utime.tv_sec + used.ru_stime.tv_sec) +
                     1e-6 * static_cast<double>(used.ru_utime.tv_usec + used.ru_stime.tv_usec);
  ::_exit(::write(report, &cpu, sizeof cpu) == sizeof cpu ? 0 : 1);
}

// The real machine's memory, pids and cpu cgroups for a grading that runs
// `parallel` tests at once, as the grader probes them.
struct RealCgroups {
  std::string name = "rooflab-cpu-test-" + std::to_string(::getpid());
  MemoryCgroups memory = MemoryCgroups::probe(name);
  PidsCgroups pids = PidsCgroups::probe(name, memory);
  CpuCgroups cpu;
  explicit RealCgroups(int parallel) : cpu(CpuCgroups::probe(name, memory, pids, parallel)) {}
  StepCgroups step(const std::string& step_name) const {
    return StepCgroups::create(memory, pids, cpu, step_name, std::uint64_t{256} << 20, 64);
  }
};

TEST(CpuCgroups, AStepOfOneProcessGetsAStepsShareBesideAStepOfSixteen) {
  const RealCgroups cgroups(1);
  const CpuCgroups& cpu = cgroups.cpu;
  if (!cpu.available()) GTEST_SKIP() << "no cpu cgroup here: " << cpu.why_not();
  const StepCgroups lone = cgroups.step("lone"), crowd = cgroups.step("crowd");
  ASSERT_NE(lone.cpu, nullptr);
  int lone_pipe[2], crowd_pipe[2];
  ASSERT_EQ(::pipe(lone_pipe), 0);
  ASSERT_EQ(::pipe(crowd_pipe), 0);
  const double until = seconds_now() + 1.5;
  const pid_t lone_parent = start_spinners(lone.procs_fds(), 1, until, lone_pipe[1]);
  const pid_t crowd_parent = start_spinners(crowd.procs_fds(), 16, until, crowd_pipe[1]);
  double lone_cpu = -1, crowd_cpu = -1;
  ASSERT_EQ(::read(lone_pipe[0], &lone_cpu, sizeof lone_cpu), static_cast<ssize_t>(sizeof lone_cpu));
  ASSERT_EQ(::read(crowd_pipe[0], &crowd_cpu, sizeof crowd_cpu), static_cast<ssize_t>(sizeof crowd_cpu));
  for (const pid_t parent : {lone_parent, crowd_parent}) ::waitpid(parent, nullptr, 0);
  for (const int fd : {lone_pipe[0], lone_pipe[1], crowd_pipe[0], crowd_pipe[1]}) ::close(fd);
  // Shared by process, the lone spinner would get 1/17 of what all 17 used.
  // By step it gets a step's share: half of a contended pair of cores (or
  // two thirds of one, as the crowd spreads over both). Other load on the
  // machine slows both steps alike, so the ratio holds under it.
  ASSERT_GT(crowd_cpu, 0);
  EXPECT_GT(lone_cpu, 0.2 * crowd_cpu) << "one spinner: " << lone_cpu << " CPU s, sixteen beside it: " << crowd_cpu
                                       << " CPU s (" << cpu.mechanism() << ")";
}

// Against processes outside any grading, the grading's cgroup weighs as much
// as the tests it runs at once: each of its steps, one at a time, got one
// process's share before cpu cgroups, and still does.
TEST(CpuCgroups, TheGradingWeighsAsMuchAsTheTestsItRunsAtOnce) {
  const RealCgroups cgroups(3);
  const CpuCgroups& cpu = cgroups.cpu;
  if (!cpu.available()) GTEST_SKIP() << "no cpu cgroup here: " << cpu.why_not();
  const StepCgroups step = cgroups.step("step");
  ASSERT_NE(step.cpu, nullptr);
  // The step's cgroup (or, under cgroup v2, its one cgroup) sits in the grading's.
  const fs::path grading = step.cpu->dir().parent_path();
  const bool v1 = cpu.version() == CgroupVersion::v1;
  EXPECT_EQ(text::trim(text::read_file(grading / (v1 ? "cpu.shares" : "cpu.weight"))), v1 ? "3072" : "300");
  EXPECT_EQ(text::trim(text::read_file(step.cpu->dir() / (v1 ? "cpu.shares" : "cpu.weight"))), v1 ? "1024" : "100")
      << "each step weighs the default";
}

}  // namespace
}  // namespace rooflab
